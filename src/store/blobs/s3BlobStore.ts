// The blob store as an S3-compatible bucket (AWS S3, MinIO, Ceph, GCS in S3 mode) through @aws-sdk/client-s3.
// Puts are streamed (multipart for large bodies, @aws-sdk/lib-storage), gets are streams: a recording is
// never held whole in memory. The credentials live in the client only: never logged, never answered.
import fs from 'node:fs';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { type BlobInfo, BlobNotFoundError, type BlobStore, BlobUnavailableError, type ByteRange, checkKey } from './blobStore.js';

export interface S3Location {
  /** The service's URL (MinIO, Ceph...); absent: AWS for the region. */
  endpoint?: string;
  region: string;
  bucket: string;
  /** Key prefix inside the bucket ("scrubline/"), '' for none. */
  prefix: string;
  /** Path-style addressing (bucket in the path): MinIO, Ceph and most self-hosted servers need it. */
  forcePathStyle: boolean;
  /** Absent: the SDK's default chain (AWS_ACCESS_KEY_ID..., instance roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** An S3 client for a location; its settings are not exposed (they hold the credentials). */
export function s3Client(location: Omit<S3Location, 'bucket' | 'prefix'>, extra: Partial<S3ClientConfig> = {}): S3Client {
  const config: S3ClientConfig = {
    region: location.region,
    forcePathStyle: location.forcePathStyle,
    ...(location.endpoint && { endpoint: location.endpoint }),
    ...(location.credentials && { credentials: location.credentials }),
    // A bucket that does not answer is found out in seconds, not minutes: the job waits and is tried again.
    maxAttempts: 3,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...extra,
  };
  return new S3Client(config);
}

/** Map an SDK error: a missing object, an unreachable or failing service (retry later), or as it is. */
export function s3Error(error: unknown, what: string): Error {
  const e = error as { name?: string; code?: string; $metadata?: { httpStatusCode?: number }; message?: string };
  const status = e.$metadata?.httpStatusCode;
  if (e.name === 'NoSuchKey' || e.name === 'NotFound' || status === 404) return new BlobNotFoundError(`${what}: not found`);
  // No credentials anywhere (job, project, system settings, environment): the request's to cure, not a wait.
  if (e.name === 'CredentialsProviderError') {
    return Object.assign(new Error(`${what}: no credentials for the bucket (give apiKeyCloud and secretKeyCloud, or set them in systemSettings)`), { permanent: true, status: 422 });
  }
  const network = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE'];
  if (status === undefined || status >= 500 || status === 429 || network.includes(e.code ?? '') || e.name === 'TimeoutError') {
    return new BlobUnavailableError(`${what}: the bucket could not be reached (${e.code ?? e.name ?? 'error'}${status ? ` ${status}` : ''})`);
  }
  // Refused (403 AccessDenied, 400...): the message names the problem, never the credentials.
  return Object.assign(new Error(`${what}: ${e.name ?? 'error'}${status ? ` (${status})` : ''}`), { permanent: true, status });
}

export class S3BlobStore implements BlobStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;

  /** `mapError`: how SDK errors are told (a client's bucket tells less than the service's own: jobs/cloud/buckets.ts). */
  constructor(
    private readonly location: S3Location,
    client?: S3Client,
    private readonly mapError: (error: unknown, what: string) => Error = s3Error,
  ) {
    this.client = client ?? s3Client(location);
  }

  get bucket(): string {
    return this.location.bucket;
  }

  private key(key: string): string {
    return `${this.location.prefix}${checkKey(key)}`;
  }

  localPath(): undefined {
    return undefined;
  }

  async put(key: string, body: Readable | Buffer | string): Promise<void> {
    try {
      const upload = new Upload({ client: this.client, params: { Bucket: this.location.bucket, Key: this.key(key), Body: body }, queueSize: 2, partSize: 8 * 1024 * 1024 });
      await upload.done();
    } catch (error) {
      throw this.mapError(error, `writing ${key}`);
    }
  }

  async putFile(key: string, file: string, options: { move?: boolean } = {}): Promise<void> {
    await this.put(key, fs.createReadStream(file));
    if (options.move) fs.rmSync(file, { force: true });
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.location.bucket, Key: this.key(key), ...(range && { Range: `bytes=${range.start}-${range.end ?? ''}` }) }),
      );
      return answer.Body as Readable;
    } catch (error) {
      throw this.mapError(error, `reading ${key}`);
    }
  }

  async head(key: string): Promise<BlobInfo | undefined> {
    try {
      const answer = await this.client.send(new HeadObjectCommand({ Bucket: this.location.bucket, Key: this.key(key) }));
      return { key, size: Number(answer.ContentLength ?? 0) };
    } catch (error) {
      const mapped = this.mapError(error, `reading ${key}`);
      if (mapped instanceof BlobNotFoundError) return undefined;
      throw mapped;
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.location.bucket, Key: this.key(key) }));
    } catch (error) {
      const mapped = this.mapError(error, `deleting ${key}`);
      if (!(mapped instanceof BlobNotFoundError)) throw mapped;
    }
  }

  async deletePrefix(prefix: string): Promise<number> {
    const found = await this.list(prefix);
    for (let i = 0; i < found.length; i += 1000) {
      const batch = found.slice(i, i + 1000);
      try {
        await this.client.send(new DeleteObjectsCommand({ Bucket: this.location.bucket, Delete: { Objects: batch.map((b) => ({ Key: this.key(b.key) })), Quiet: true } }));
      } catch (error) {
        throw this.mapError(error, `deleting ${prefix}`);
      }
    }
    return found.length;
  }

  async list(prefix: string): Promise<BlobInfo[]> {
    const out: BlobInfo[] = [];
    let token: string | undefined;
    const full = `${this.location.prefix}${prefix}`;
    do {
      let answer;
      try {
        answer = await this.client.send(new ListObjectsV2Command({ Bucket: this.location.bucket, Prefix: full, ContinuationToken: token }));
      } catch (error) {
        throw this.mapError(error, `listing ${prefix || '(all)'}`);
      }
      for (const item of answer.Contents ?? []) {
        if (item.Key) out.push({ key: item.Key.slice(this.location.prefix.length), size: Number(item.Size ?? 0) });
      }
      token = answer.IsTruncated ? answer.NextContinuationToken : undefined;
    } while (token);
    return out;
  }

  async presignedUrl(key: string, seconds: number): Promise<string> {
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.location.bucket, Key: this.key(key) }), { expiresIn: seconds });
  }

  /** Close the client's connections. */
  destroy(): void {
    this.client.destroy();
  }
}
