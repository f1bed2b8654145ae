// Where a run keeps its files on this machine (a recording staged from a bucket, a redacted copy being written
// and checked): a folder per process under the data directory's staging/, named by its pid. A process killed
// mid-run (kill -9, a crash) leaves copies of recordings there — unredacted ones included — and nobody else
// would ever remove them: at start, the folders of processes no longer alive on this machine are deleted. A
// folder whose pid was reused by another process stays until that one is gone too.
import fs from 'node:fs';
import path from 'node:path';

/** This process's staging folder. */
export function stagingDir(dataDir: string, pid = process.pid): string {
  return path.join(dataDir, 'staging', String(pid));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Delete the staging folders of processes that are gone, and the files older builds left directly in staging/
 * (one folder for every process then) once untouched for `looseAgeMs`. Answers how many entries went.
 */
export function sweepDeadStaging(dataDir: string, looseAgeMs = 6 * 3600_000, now = Date.now()): number {
  const root = path.join(dataDir, 'staging');
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(root, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const entry of entries) {
    const full = path.join(root, entry.name);
    const pid = /^[0-9]+$/.test(entry.name) ? Number(entry.name) : undefined;
    try {
      if (entry.isDirectory() && pid !== undefined) {
        if (pid === process.pid || alive(pid)) continue;
      } else if (now - fs.lstatSync(full).mtimeMs <= looseAgeMs) continue;
      fs.rmSync(full, { recursive: true, force: true });
      removed++;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return removed;
}
