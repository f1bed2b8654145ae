// A text job's input, kept as a blob in the job's folder (never in the jobs row: a row cannot be made to
// forget what it once held, a blob can be removed). The worker reads it; it is removed once the job's text
// was redacted or the job failed, and with the job.
import { type BlobStore, BlobNotFoundError, blobKey } from '../store/blobs/index.js';

const FILE_NAME = 'input.txt';

/** The folder of a job's blobs (its recording, redacted copy or text input): a key prefix. */
export function jobFolder(jobId: string): string {
  return blobKey('uploads', jobId);
}

function inputKey(jobId: string): string {
  return blobKey(jobFolder(jobId), FILE_NAME);
}

/** Written whole: a crash leaves the old input or the new, never half (BlobStore.put). */
export async function writeTextInput(blobs: BlobStore, jobId: string, text: string): Promise<void> {
  await blobs.put(inputKey(jobId), text);
}

/** The job's text input, or undefined when none is kept (redacted, failed, or never written). */
export async function readTextInput(blobs: BlobStore, jobId: string): Promise<string | undefined> {
  let stream;
  try {
    stream = await blobs.get(inputKey(jobId));
  } catch (error) {
    if (error instanceof BlobNotFoundError) return undefined;
    throw error;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

export async function hasTextInput(blobs: BlobStore, jobId: string): Promise<boolean> {
  return (await blobs.head(inputKey(jobId))) !== undefined;
}

export async function removeTextInput(blobs: BlobStore, jobId: string): Promise<void> {
  await blobs.delete(inputKey(jobId));
}

/** Parameters without the text: what may be stored in the jobs row. */
export function withoutText<T extends { text?: unknown }>(params: T): Omit<T, 'text'> {
  const { text: _text, ...rest } = params;
  return rest;
}
