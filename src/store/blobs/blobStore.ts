// Where the service keeps its files (uploads, redacted copies, text inputs): a blob store addressed by keys
// ("uploads/<job id>/<name>", '/'-separated, relative). Two implementations: a local directory (one box, or
// a shared volume) and an S3-compatible bucket (API and workers on machines that share nothing but the
// database and the bucket). Jobs store keys, never paths.
import type { Readable } from 'node:stream';

export interface BlobInfo {
  key: string;
  size: number;
}

/** Bytes `start`..`end` of a blob, both inclusive (as an HTTP Range); `end` absent: to the end. */
export interface ByteRange {
  start: number;
  end?: number;
}

export interface BlobStore {
  /** 'local' or 's3', for logs and /asr/status (never an address with credentials). */
  readonly kind: 'local' | 's3';
  /** Write a blob whole (a stream is streamed, never buffered); a reader sees the old blob or the new, never half. */
  put(key: string, body: Readable | Buffer | string): Promise<void>;
  /** Store a local file under `key`; `move`: the file is the caller's no longer (a rename where the store can). */
  putFile(key: string, file: string, options?: { move?: boolean }): Promise<void>;
  /** A blob's bytes as a stream (a range of them when asked); BlobNotFoundError when there is none. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** A blob's size, or undefined when there is none. */
  head(key: string): Promise<BlobInfo | undefined>;
  /** Remove a blob; none is not an error. */
  delete(key: string): Promise<void>;
  /** Remove every blob under `prefix` (a folder: end it with '/'); answers how many. */
  deletePrefix(prefix: string): Promise<number>;
  /** The blobs under `prefix`, by key. */
  list(prefix: string): Promise<BlobInfo[]>;
  /** The blob as a file on this machine when the store is local (no copy needed), else undefined. */
  localPath(key: string): string | undefined;
  /** A URL that reads the blob without credentials for `seconds`, where the backend has them (S3). */
  presignedUrl?(key: string, seconds: number): Promise<string>;
}

export class BlobNotFoundError extends Error {
  override name = 'BlobNotFoundError';
  readonly notFound = true;
}

/**
 * The store could not be reached or answered with a server error: nobody's fault the client could cure. A job
 * meeting it waits and is tried again, with this reason on it.
 */
export class BlobUnavailableError extends Error {
  override name = 'BlobUnavailableError';
  readonly unavailable = true;
}

const BAD_KEY = /(^|\/)\.\.?(\/|$)|^\/|\\|\0/;

/** Keys are made by the service; one that could leave its folder is a bug, refused loudly. */
export function checkKey(key: string): string {
  if (key === '' || BAD_KEY.test(key)) throw new Error(`not a blob key: ${JSON.stringify(key)}`);
  return key;
}

/** Join key parts with '/', whatever the platform's separator. */
export function blobKey(...parts: string[]): string {
  return parts.filter((p) => p !== '').join('/').replace(/\/{2,}/g, '/');
}

/** The folder part of a key ("uploads/<id>" of "uploads/<id>/call.wav"). */
export function keyFolder(key: string): string {
  const slash = key.lastIndexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

/** The last part of a key. */
export function keyName(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1);
}
