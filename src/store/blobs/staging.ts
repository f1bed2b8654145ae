// ffmpeg and the engine read files: a blob is staged to a temporary file of this machine for one run
// (streamed, never held in memory) and removed after it. A local store's blob is its own file: no copy.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { BlobStore } from './blobStore.js';

export interface StagedFile {
  path: string;
  /** Remove the temporary copy (nothing for a local store's own file). */
  dispose(): void;
}

/** A temporary file name in `dir` with the key's extension (ffmpeg guesses formats by it). */
export function tempFile(dir: string, ext = ''): string {
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, `stage-${crypto.randomUUID()}${ext}`);
}

export async function stageBlob(blobs: BlobStore, key: string, tempDir: string, signal?: AbortSignal): Promise<StagedFile> {
  const local = blobs.localPath(key);
  if (local) return { path: local, dispose: () => {} };
  const file = tempFile(tempDir, path.extname(key));
  try {
    await pipeline(await blobs.get(key), fs.createWriteStream(file, { mode: 0o600 }), { signal });
  } catch (error) {
    fs.rmSync(file, { force: true });
    throw error;
  }
  return { path: file, dispose: () => fs.rmSync(file, { force: true }) };
}
