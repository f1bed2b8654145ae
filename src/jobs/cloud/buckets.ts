// Clients for the buckets jobs read from and write to (clients' buckets: never the service's own store).
// Trust rules (docs: bucket.md):
// - Credentials come from the job (apiKeyCloud/secretKeyCloud, sealed in the job row), else the project's
//   parameters, else the system's (systemSettings). Never the service's own store credentials (SCRUBLINE_S3_*),
//   never the SDK's default chain (environment, instance role): no credentials is a 4xx, not a fallback.
// - Inherited (admin) credentials go only to the settings' endpoint: a job that names an endpoint of its own
//   gives credentials of its own.
// - The service's own bucket is never a request's source or target, whatever endpoint is named.
// - Every endpoint goes through the outbound target policy (notifications/targetPolicy.ts, with the operator's
//   SCRUBLINE_WEBHOOK_ALLOW): a literal address is checked before connecting, a name on every address it
//   resolves to when each connection is made (so DNS cannot swap a public answer for an internal one).
// - Errors tell an S3 answer (not found, access denied) from "could not be reached or did not answer as S3
//   storage", one text for a closed port, an open one and a non-S3 HTTP server.
import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { S3Client } from '@aws-sdk/client-s3';
import { invalid } from '../../errors.js';
import { openCredentials } from '../../security/credentials.js';
import type { SecretBox } from '../../security/secretBox.js';
import { type BlobStoreConfig, BlobNotFoundError, BlobUnavailableError, S3BlobStore, s3Client } from '../../store/blobs/index.js';
import { guardedLookup, osResolve, type Resolve } from '../notifications/transport.js';
import { TargetNotAllowedError, type TargetPolicy } from '../notifications/targetPolicy.js';
import type { TranscribeParams } from '../request.js';
import { outputFolderName, parseBucketRef, parseFolder, parseSource } from './location.js';

export type CloudSettings = Partial<Record<'endpoint' | 'region' | 'bucket' | 'folder' | 'apiKeyCloud' | 'secretKeyCloud', string>>;

export interface CloudBucketsOptions {
  box: SecretBox;
  /** Project (sid) over system settings, credentials opened (Parameters.cloudSettings). */
  settings: (sid?: string) => Promise<CloudSettings>;
  /** The service's own store: its bucket is never a request's. */
  store: BlobStoreConfig;
  /** Which hosts an endpoint may be (the notification policy, with its operator allow-list). */
  policy: TargetPolicy;
  /** How names are resolved when a connection is made (default: the OS resolver). */
  resolve?: Resolve;
}

/** A client's bucket could not be reached (or did not answer as S3): the job waits, a bounded number of times. */
export class ClientBucketUnavailableError extends BlobUnavailableError {
  readonly clientBucket = true;
}

/** The request's to cure: a 400 naming the field at submit; a job run that meets it fails for good. */
function refused(field: string, message: string): Error {
  return Object.assign(invalid(`${field} ${message}`, [{ pointer: `/${field}`, path: field, message }]), { permanent: true });
}

/**
 * An endpoint must be an http(s) URL without userinfo (credentials go as apiKeyCloud/secretKeyCloud, sealed),
 * to a host the target policy allows. The messages name no address and no port state.
 */
export function checkEndpoint(endpoint: string, policy: TargetPolicy): URL {
  let url: URL | undefined;
  try {
    url = new URL(endpoint);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw refused('endpoint', "must be the http(s) URL of the S3 service (as given with the job, or in the project's or system settings)");
  }
  if (url.username || url.password) throw refused('endpoint', 'must not carry a user name or password; give the credentials as apiKeyCloud and secretKeyCloud');
  try {
    policy.checkUrl(url, 'endpoint');
  } catch (error) {
    if (error instanceof TargetNotAllowedError) throw refused('endpoint', `${error.message.replace(/^endpoint /, '')} (an operator allows private S3 services with SCRUBLINE_WEBHOOK_ALLOW)`);
    throw error;
  }
  return url;
}

/**
 * A region is a name (us-east-1, eu-central-1, auto, garage): anything else (a space, a slash) would become part of
 * the host name. The request's to cure: a 400 naming it, permanent.
 */
function checkRegion(region: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/.test(region)) {
    throw refused('region', "must be the name of the S3 region (letters, digits, \".\", \"_\" and \"-\", as us-east-1), as given with the job, or in the project's or system settings");
  }
}

/** S3 error codes a real S3 service answers with: told as they are. Anything else reads as "not reached". */
const S3_REFUSALS = new Set([
  'AccessDenied', 'AllAccessDisabled', 'InvalidAccessKeyId', 'SignatureDoesNotMatch', 'NoSuchBucket', 'InvalidBucketName',
  'AuthorizationHeaderMalformed', 'PermanentRedirect', 'ExpiredToken', 'InvalidToken', 'AccountProblem', 'InvalidObjectState',
]);

/** How errors of a client's bucket are told (S3BlobStore's mapError): little about what answered. */
export function clientBucketError(error: unknown, what: string): Error {
  const e = error as { name?: string; code?: string; $metadata?: { httpStatusCode?: number } };
  if (e.name === 'TargetNotAllowedError' || e.code === 'ETARGETNOTALLOWED') {
    return Object.assign(new Error(`${what}: the bucket's endpoint is not an allowed address (loopback, private, link-local or metadata)`), { permanent: true });
  }
  const status = e.$metadata?.httpStatusCode;
  // Only S3's own NoSuchKey: a bare 404 (any web server's) reads as "did not answer as S3 storage".
  if (status === 404 && e.name === 'NoSuchKey') return new BlobNotFoundError(`${what}: not found`);
  if (status !== undefined && status < 500 && e.name && S3_REFUSALS.has(e.name)) {
    return Object.assign(new Error(`${what}: the bucket refused the request (${e.name}, ${status})`), { permanent: true, status });
  }
  return new ClientBucketUnavailableError(`${what}: the bucket could not be reached, or did not answer as S3 storage`);
}

interface Target {
  endpoint?: string;
  url?: URL;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export class CloudBuckets {
  /** Clients by a digest of their settings (never the settings themselves as a key that could be logged). */
  private readonly clients = new Map<string, S3Client>();

  constructor(private readonly options: CloudBucketsOptions) {}

  /** The settings in force for a job: its own, over its project's and the system's. */
  async settingsFor(params: TranscribeParams): Promise<CloudSettings> {
    const own = openCredentials(params, this.options.box) as Record<string, unknown>;
    const inherited = await this.options.settings(params.sid);
    const pick = (name: keyof CloudSettings) => text(own[name]) ?? inherited[name];
    return {
      endpoint: pick('endpoint'),
      region: pick('region'),
      bucket: pick('bucket'),
      folder: pick('folder'),
      apiKeyCloud: pick('apiKeyCloud'),
      secretKeyCloud: pick('secretKeyCloud'),
    };
  }

  /** The service's own bucket, when its store is one. */
  private get ownBucket(): string | undefined {
    return this.options.store.kind === 's3' ? this.options.store.location.bucket : undefined;
  }

  /** Where `bucket` is reached for this job, and with which credentials; throws a 400 (permanent) when it may not be. */
  async target(bucket: string, params: TranscribeParams, field: string): Promise<Target> {
    if (bucket === this.ownBucket) throw refused(field, "names the service's own storage bucket, which is never a job's source or target");
    const own = openCredentials(params, this.options.box) as Record<string, unknown>;
    const inherited = await this.options.settings(params.sid);
    const ownEndpoint = text(own.endpoint);
    const endpoint = ownEndpoint ?? inherited.endpoint;
    const url = endpoint === undefined ? undefined : checkEndpoint(endpoint, this.options.policy);
    const region = text(own.region) ?? inherited.region ?? 'us-east-1';
    checkRegion(region);
    const ownPair = text(own.apiKeyCloud) && text(own.secretKeyCloud) ? { accessKeyId: own.apiKeyCloud as string, secretAccessKey: own.secretKeyCloud as string } : undefined;
    const inheritedPair =
      inherited.apiKeyCloud && inherited.secretKeyCloud ? { accessKeyId: inherited.apiKeyCloud, secretAccessKey: inherited.secretKeyCloud } : undefined;
    // The settings' credentials are for the settings' endpoint: a job naming another gives its own.
    const sameEndpoint = ownEndpoint === undefined || (inherited.endpoint !== undefined && sameUrl(ownEndpoint, inherited.endpoint));
    if (!ownPair && inheritedPair && !sameEndpoint) {
      throw refused('endpoint', "is the job's own: give apiKeyCloud and secretKeyCloud with it (the settings' credentials go only to the settings' endpoint)");
    }
    const credentials = ownPair ?? inheritedPair;
    if (!credentials) {
      throw refused('apiKeyCloud', "is needed for a bucket: give apiKeyCloud and secretKeyCloud with the job, or have an administrator set them in the project's parameters or systemSettings");
    }
    return { endpoint, url, region, credentials };
  }

  /**
   * Check every bucket and endpoint a request names, without connecting: the 400s of submit. The worker meets the
   * same rules (target) when it connects, so settings changed since fail the job with the reason.
   */
  async checkRequest(params: TranscribeParams): Promise<{ outputFolder?: string }> {
    if (text(params.endpoint)) checkEndpoint(params.endpoint!, this.options.policy);
    const settings = () => this.settingsFor(params);
    if (params.cloudStoragePath && !/^https?:\/\//i.test(params.cloudStoragePath.trim())) {
      const source = parseSource(params.cloudStoragePath, 'cloudStoragePath', (await settings()).bucket);
      if (source.kind === 'bucket') await this.target(source.ref.bucket, params, 'cloudStoragePath');
    }
    if (params.cloudStorageFolder) await this.target(parseFolder(params.cloudStorageFolder, 'cloudStorageFolder', (await settings()).bucket).bucket, params, 'cloudStorageFolder');
    if (params.transcriptInput) await this.target(parseBucketRef(params.transcriptInput, 'transcriptInput', (await settings()).bucket).bucket, params, 'transcriptInput');
    const output = outputFolderName(params, await settings());
    if (!output) return {};
    const folder = parseFolder(output, 'transcriptOutput', (await settings()).bucket);
    await this.target(folder.bucket, params, 'transcriptOutput');
    return { outputFolder: `s3://${folder.bucket}/${folder.key}` };
  }

  /** A store over a client's `bucket` with the job's settings (field: what the request named it as). */
  async bucket(bucket: string, params: TranscribeParams, field = 'bucket'): Promise<S3BlobStore> {
    const { endpoint, url, region, credentials } = await this.target(bucket, params, field);
    // Path-style wherever an endpoint is named (MinIO, Ceph and most self-hosted servers need it).
    const forcePathStyle = endpoint !== undefined;
    const digest = crypto.createHash('sha256').update(JSON.stringify([endpoint, region, credentials.accessKeyId, credentials.secretAccessKey])).digest('hex');
    let client = this.clients.get(digest);
    if (!client) {
      const policy = this.options.policy;
      // Every connection's address goes through the policy (a name allow-listed by the operator is trusted).
      const lookup = guardedLookup(url && policy.nameAllowed(url) ? () => true : (address) => policy.addressAllowed(address), this.options.resolve ?? osResolve);
      client = s3Client(
        { endpoint, region, forcePathStyle, credentials },
        {
          requestHandler: {
            httpAgent: new http.Agent({ keepAlive: true, lookup } as http.AgentOptions),
            httpsAgent: new https.Agent({ keepAlive: true, lookup } as https.AgentOptions),
            connectionTimeout: 10_000,
            requestTimeout: 60_000,
          },
        },
      );
      this.clients.set(digest, client);
    }
    return new S3BlobStore({ endpoint, region, bucket, prefix: '', forcePathStyle, credentials }, client, clientBucketError);
  }

  close(): void {
    for (const client of this.clients.values()) client.destroy();
    this.clients.clear();
  }
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}
