// Looking into a test service's blob store, whichever it is (the data dir, or a bucket with
// SCRUBLINE_BLOB_STORE=s3): job tests assert what is kept and what is gone through these.
import { BlobNotFoundError } from '../../src/store/blobs/index.js';
import type { TestService } from './harness.js';

export async function blobExists(svc: TestService, key: string): Promise<boolean> {
  return (await svc.services.blobs.head(key)) !== undefined;
}

/** A blob's bytes, or undefined when there is none. */
export async function readBlob(svc: TestService, key: string): Promise<Buffer | undefined> {
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of await svc.services.blobs.get(key)) chunks.push(Buffer.from(chunk as Buffer));
    return Buffer.concat(chunks);
  } catch (error) {
    if (error instanceof BlobNotFoundError) return undefined;
    throw error;
  }
}

/** The keys under a prefix ("uploads/<job id>/"). */
export async function blobKeys(svc: TestService, prefix: string): Promise<string[]> {
  return (await svc.services.blobs.list(prefix)).map((b) => b.key);
}
