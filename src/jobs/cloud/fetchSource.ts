// The worker's side of a job whose recording is in a client's bucket (cloudStoragePath): fetched — by the
// worker, never the API — streamed to a temporary file, checked as an upload is (usable audio within the
// limits), then stored in the job's folder of the service's blob store like any upload. A bucket out of reach
// makes the job wait (BlobUnavailableError); a recording that is not there or not audio fails it for good.
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { openCredentials } from '../../security/credentials.js';
import type { SecretBox } from '../../security/secretBox.js';
import { BlobNotFoundError, type BlobStore, blobKey, tempFile } from '../../store/blobs/index.js';
import type { JobRow } from '../../store/tables.js';
import type { TargetPolicy } from '../notifications/targetPolicy.js';
import type { TranscribeParams } from '../request.js';
import { PermanentJobError } from '../worker.js';
import type { CloudBuckets } from './buckets.js';
import { fetchUrlToFile } from './fetchUrl.js';
import { parseSource, sourceName } from './location.js';

export interface SourceFetcherOptions {
  blobs: BlobStore;
  buckets: CloudBuckets;
  box: SecretBox;
  tempDir: string;
  policy: TargetPolicy;
  maxBytes: number;
  /** Reads the file's facts as an upload's are (throws with `reason` when it is not usable audio). */
  probe: (file: string) => Promise<{ durationSeconds: number }>;
}

const SAFE_NAME = /[^A-Za-z0-9._-]+/g;

export function sourceFetcher(options: SourceFetcherOptions) {
  return async (job: JobRow, params: TranscribeParams, signal: AbortSignal): Promise<{ key: string; audioSeconds: number } | undefined> => {
    // The full presigned URL is kept sealed (cloudStorageUrl); cloudStoragePath shows it without its query.
    const opened = openCredentials(params, options.box) as TranscribeParams & { cloudStorageUrl?: string };
    const named = opened.cloudStorageUrl ?? params.cloudStoragePath;
    if (!named) return undefined;
    let source;
    try {
      source = parseSource(named, 'cloudStoragePath', (await options.buckets.settingsFor(params)).bucket);
    } catch (error) {
      throw new PermanentJobError((error as Error).message);
    }
    const name = (sourceName(source).replace(SAFE_NAME, '_') || 'audio').slice(-120);
    const file = tempFile(options.tempDir, path.extname(name));
    try {
      if (source.kind === 'bucket') {
        const bucket = await options.buckets.bucket(source.ref.bucket, params, 'cloudStoragePath');
        try {
          await pipeline(await bucket.get(source.ref.key), fs.createWriteStream(file, { mode: 0o600 }), { signal });
        } catch (error) {
          if (error instanceof BlobNotFoundError) throw new PermanentJobError(`the recording s3://${source.ref.bucket}/${source.ref.key} is not in the bucket`);
          throw error;
        }
      } else {
        await fetchUrlToFile(source.url, file, { policy: options.policy, maxBytes: options.maxBytes, signal });
      }
      if (fs.statSync(file).size > options.maxBytes) throw new PermanentJobError(`the recording is larger than the limit of ${options.maxBytes} bytes`);
      let facts;
      try {
        facts = await options.probe(file);
      } catch (error) {
        const reason = (error as { reason?: string }).reason;
        if (reason && reason !== 'timeout' && reason !== 'ffmpeg_missing') throw new PermanentJobError(`the recording is not usable audio (${reason}): ${(error as Error).message}`);
        throw error;
      }
      const key = blobKey('uploads', job.id, name);
      await options.blobs.putFile(key, file, { move: true });
      return { key, audioSeconds: facts.durationSeconds };
    } finally {
      fs.rmSync(file, { force: true });
    }
  };
}
