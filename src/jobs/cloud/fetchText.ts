// The worker's side of a text job whose transcript is in a client's bucket (transcriptInput): read by the worker —
// never the API — bounded in size, checked to be UTF-8 text, and kept as the job's text input (textInput.ts) like
// a transcript sent in the request; from there the job runs as any text job. A bucket out of reach makes the job
// wait (the storage error goes up as it is); an object that is not there, too large, or not text fails the job.
import { openCredentials } from '../../security/credentials.js';
import type { SecretBox } from '../../security/secretBox.js';
import { BlobNotFoundError, type BlobStore } from '../../store/blobs/index.js';
import type { JobRow } from '../../store/tables.js';
import type { TranscribeParams } from '../request.js';
import { hasTextInput, writeTextInput } from '../textInput.js';
import { PermanentJobError } from '../worker.js';
import type { CloudBuckets } from './buckets.js';
import { parseBucketRef } from './location.js';

export interface TextFetcherOptions {
  blobs: BlobStore;
  buckets: CloudBuckets;
  box: SecretBox;
  /** The largest transcript read (bytes): the JSON body limit, as for a transcript sent in the request. */
  maxBytes: number;
}

export function textFetcher(options: TextFetcherOptions) {
  /** Answers whether the job's text input is now kept (fetched now, or already). */
  return async (job: JobRow, params: TranscribeParams, signal: AbortSignal): Promise<boolean> => {
    if (!params.transcriptInput) return false;
    if (await hasTextInput(options.blobs, job.id)) return true;
    const opened = openCredentials(params, options.box) as TranscribeParams;
    let ref;
    try {
      ref = parseBucketRef(params.transcriptInput, 'transcriptInput', (await options.buckets.settingsFor(opened)).bucket);
    } catch (error) {
      throw new PermanentJobError((error as Error).message);
    }
    const bucket = await options.buckets.bucket(ref.bucket, opened, 'transcriptInput');
    const where = `s3://${ref.bucket}/${ref.key}`;
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of await bucket.get(ref.key)) {
        signal.throwIfAborted();
        size += (chunk as Buffer).length;
        if (size > options.maxBytes) throw new PermanentJobError(`the transcript ${where} is larger than the limit of ${options.maxBytes} bytes`);
        chunks.push(Buffer.from(chunk as Buffer));
      }
    } catch (error) {
      if (error instanceof BlobNotFoundError) throw new PermanentJobError(`the transcript ${where} is not in the bucket`);
      throw error;
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)).replace(/^\uFEFF/, '');
    } catch {
      throw new PermanentJobError(`the transcript ${where} is not UTF-8 text`);
    }
    if (text.trim() === '' || text.includes('\u0000')) throw new PermanentJobError(`the transcript ${where} holds no text`);
    await writeTextInput(options.blobs, job.id, text);
    return true;
  };
}
