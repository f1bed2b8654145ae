// Uploads are streamed to the data directory's tmp folder and moved into their job's folder once accepted;
// a request cut short by a crash leaves its file there. At start those are deleted. Only files untouched for
// a while go: another process sharing the data directory may be receiving an upload right now (a file being
// written is touched with every chunk).
import fs from 'node:fs';
import path from 'node:path';

/** An upload untouched this long (ms) belongs to no live request. */
export const ORPHAN_AGE_MS = 15 * 60_000;

export function uploadTempDir(dataDir: string): string {
  return path.join(dataDir, 'tmp');
}

/** Delete what in the upload temp dir was last written more than `olderThanMs` ago; answers how many entries. */
export function sweepOrphanUploads(dataDir: string, olderThanMs = ORPHAN_AGE_MS, now = Date.now()): number {
  const dir = uploadTempDir(dataDir);
  let entries: string[];
  try {
    entries = fs.readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const name of entries) {
    const entry = path.join(dir, name);
    try {
      if (now - fs.lstatSync(entry).mtimeMs <= olderThanMs) continue;
      fs.rmSync(entry, { recursive: true, force: true });
      removed++;
    } catch (error) {
      // Gone meanwhile (its request finished): nothing to sweep.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return removed;
}
