// Clients for the buckets jobs read from and write to. Credentials come from the job's own parameters
// (apiKeyCloud/secretKeyCloud, endpoint, region; sealed in the job row), else the project's parameters, else the
// system's (systemSettings), else the service's own store settings (SCRUBLINE_S3_*), else the SDK's default
// chain. They live in the clients only: never logged, never answered.
import crypto from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import { invalid } from '../../errors.js';
import { openCredentials } from '../../security/credentials.js';
import type { SecretBox } from '../../security/secretBox.js';
import { type BlobStoreConfig, S3BlobStore, s3Client } from '../../store/blobs/index.js';
import type { TranscribeParams } from '../request.js';

export type CloudSettings = Partial<Record<'endpoint' | 'region' | 'bucket' | 'folder' | 'apiKeyCloud' | 'secretKeyCloud', string>>;

export interface CloudBucketsOptions {
  box: SecretBox;
  /** Project (sid) over system settings, credentials opened (Parameters.cloudSettings). */
  settings: (sid?: string) => Promise<CloudSettings>;
  /** The service's own store: its endpoint and credentials are the last fallback. */
  store: BlobStoreConfig;
}

/**
 * An endpoint that is not an http(s) URL is the request's (or the settings') to cure: a 400 naming it at submit, and
 * a job run that meets one fails for good (`permanent`) — never "the bucket could not be reached, try again".
 */
function checkEndpoint(endpoint: string): void {
  let url: URL | undefined;
  try {
    url = new URL(endpoint);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw Object.assign(
      invalid('endpoint must be the http(s) URL of the S3 service (as given with the job, or in the project\'s or system settings).', [
        { pointer: '/endpoint', path: 'endpoint', message: 'must be an http(s) URL' },
      ]),
      { permanent: true },
    );
  }
}

/**
 * A region is a name (us-east-1, eu-central-1, auto, garage): anything else (a space, a slash) would become part of
 * the host name and fail as "could not be reached, try again". The request's to cure: a 400 naming it, permanent.
 */
function checkRegion(region: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/.test(region)) {
    throw Object.assign(
      invalid('region must be the name of the S3 region (letters, digits, ".", "_" and "-", as us-east-1), as given with the job, or in the project\'s or system settings.', [
        { pointer: '/region', path: 'region', message: 'must be a region name' },
      ]),
      { permanent: true },
    );
  }
}

export class CloudBuckets {
  /** Clients by a digest of their settings (never the settings themselves as a key that could be logged). */
  private readonly clients = new Map<string, S3Client>();

  constructor(private readonly options: CloudBucketsOptions) {}

  /** The settings in force for a job: its own, over its project's and the system's. */
  async settingsFor(params: TranscribeParams): Promise<CloudSettings> {
    const own = openCredentials(params, this.options.box) as Record<string, unknown>;
    const inherited = await this.options.settings(params.sid);
    const pick = (name: keyof CloudSettings) => (typeof own[name] === 'string' && own[name] !== '' ? (own[name] as string) : inherited[name]);
    return {
      endpoint: pick('endpoint'),
      region: pick('region'),
      bucket: pick('bucket'),
      folder: pick('folder'),
      apiKeyCloud: pick('apiKeyCloud'),
      secretKeyCloud: pick('secretKeyCloud'),
    };
  }

  /** A store over `bucket` with the job's settings. */
  async bucket(bucket: string, params: TranscribeParams): Promise<S3BlobStore> {
    const settings = await this.settingsFor(params);
    const own = this.options.store.kind === 's3' ? this.options.store.location : undefined;
    const endpoint = settings.endpoint ?? own?.endpoint;
    if (settings.endpoint !== undefined) checkEndpoint(settings.endpoint);
    if (settings.region !== undefined) checkRegion(settings.region);
    const region = settings.region ?? own?.region ?? 'us-east-1';
    const credentials =
      settings.apiKeyCloud && settings.secretKeyCloud ? { accessKeyId: settings.apiKeyCloud, secretAccessKey: settings.secretKeyCloud } : own?.credentials;
    // Path-style wherever an endpoint is named (MinIO, Ceph and most self-hosted servers need it).
    const forcePathStyle = settings.endpoint ? true : (own?.forcePathStyle ?? false);
    const digest = crypto
      .createHash('sha256')
      .update(JSON.stringify([endpoint, region, forcePathStyle, credentials?.accessKeyId, credentials?.secretAccessKey]))
      .digest('hex');
    let client = this.clients.get(digest);
    if (!client) {
      client = s3Client({ endpoint, region, forcePathStyle, credentials });
      this.clients.set(digest, client);
    }
    return new S3BlobStore({ endpoint, region, bucket, prefix: '', forcePathStyle, credentials }, client);
  }

  close(): void {
    for (const client of this.clients.values()) client.destroy();
    this.clients.clear();
  }
}
