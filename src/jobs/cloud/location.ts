// Where a job's recording comes from and its results go, as the request names them: `cloudStoragePath` (one
// recording: "bucket/key", "s3://bucket/key", or a presigned http(s) URL), `cloudStorageFolder` (every
// recording under "bucket/prefix" or "s3://bucket/prefix/", a batch) and `transcriptOutput` (the folder the
// results are written to). Parsed at submit: a malformed one is a 400 naming the field.
import { invalid } from '../../errors.js';

export interface BucketRef {
  bucket: string;
  /** The object's key, or a folder's prefix ('' or ending with '/'). */
  key: string;
}

export type SourceRef = { kind: 'bucket'; ref: BucketRef } | { kind: 'url'; url: URL };

/** S3 bucket names: 3-63 of a-z 0-9 . - (the rule S3, MinIO and Ceph share). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

function bad(field: string, message: string) {
  return invalid(`${field} ${message}`, [{ pointer: `/${field}`, path: field, message }]);
}

/** "s3://bucket/key" or "bucket/key"; with `defaultBucket`, a bare key ("calls/a.wav") is in that bucket. */
export function parseBucketRef(value: string, field: string, defaultBucket?: string): BucketRef {
  const text = value.trim().replace(/^s3:\/\//i, '');
  const slash = text.indexOf('/');
  const first = slash < 0 ? text : text.slice(0, slash);
  let ref: BucketRef;
  if (BUCKET.test(first) && (slash >= 0 || !defaultBucket)) ref = { bucket: first, key: slash < 0 ? '' : text.slice(slash + 1) };
  else if (defaultBucket) ref = { bucket: defaultBucket, key: text };
  else throw bad(field, 'must name a bucket and key: "bucket/key" or "s3://bucket/key"');
  if (!BUCKET.test(ref.bucket)) throw bad(field, `names a bucket "${ref.bucket}" that is not a valid bucket name`);
  if (/(^|\/)\.\.?(\/|$)|[\u0000-\u001f\\]/.test(ref.key) || ref.key.startsWith('/')) throw bad(field, 'must not hold "..", "." segments, control characters or backslashes in its key');
  return ref;
}

/** One recording: a bucket and key, or an http(s) URL (a presigned link). */
export function parseSource(value: string, field = 'cloudStoragePath', defaultBucket?: string): SourceRef {
  if (/^https?:\/\//i.test(value.trim())) {
    let url: URL;
    try {
      url = new URL(value.trim());
    } catch {
      throw bad(field, 'is not a valid URL');
    }
    if (url.username || url.password) throw bad(field, 'must not carry a user name or password (a presigned URL carries its signature in the query)');
    return { kind: 'url', url };
  }
  const ref = parseBucketRef(value, field, defaultBucket);
  if (ref.key === '' || ref.key.endsWith('/')) throw bad(field, 'names a folder; a folder of recordings goes as cloudStorageFolder');
  return { kind: 'bucket', ref };
}

/** A folder: its prefix always ends with '/' (or is '' for the whole bucket). */
export function parseFolder(value: string, field: string, defaultBucket?: string): BucketRef {
  const ref = parseBucketRef(value, field, defaultBucket);
  return { bucket: ref.bucket, key: ref.key === '' || ref.key.endsWith('/') ? ref.key : `${ref.key}/` };
}

/** The last part of a key or URL path: the recording's name. */
export function sourceName(source: SourceRef): string {
  const key = source.kind === 'bucket' ? source.ref.key : decodeURIComponent(source.url.pathname);
  return key.slice(key.lastIndexOf('/') + 1) || 'audio';
}

/** A source as stored in a job (never with credentials: a presigned URL's query is its own, kept sealed). */
export function sourceText(source: SourceRef): string {
  return source.kind === 'bucket' ? `s3://${source.ref.bucket}/${source.ref.key}` : source.url.toString();
}

/**
 * The output folder a job names: `transcriptOutput`, else (a job from a bucket) the settings' `folder`; undefined
 * when its results go nowhere but the service.
 */
export function outputFolderName(params: { transcriptOutput?: string; cloudStoragePath?: string; cloudHosted?: boolean }, settings: { folder?: string }): string | undefined {
  const fromBucket = Boolean(params.cloudStoragePath) || params.cloudHosted === true;
  return params.transcriptOutput ?? (fromBucket ? settings.folder : undefined);
}
