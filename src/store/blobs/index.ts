// The service's blob store, from configuration: the data directory (default) or an S3-compatible bucket.
import type { BlobStore } from './blobStore.js';
import { LocalBlobStore } from './localBlobStore.js';
import { S3BlobStore, type S3Location } from './s3BlobStore.js';

export * from './blobStore.js';
export { LocalBlobStore } from './localBlobStore.js';
export { S3BlobStore, type S3Location, s3Client, s3Error } from './s3BlobStore.js';
export { stageBlob, tempFile, type StagedFile } from './staging.js';

export type BlobStoreConfig = { kind: 'local' } | { kind: 's3'; location: S3Location };

export function openBlobStore(config: BlobStoreConfig, dataDir: string): BlobStore {
  return config.kind === 's3' ? new S3BlobStore(config.location) : new LocalBlobStore(dataDir);
}
