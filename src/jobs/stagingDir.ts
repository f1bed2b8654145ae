// Where a run keeps its files on this machine (a recording staged from a bucket, a redacted copy being written
// and checked): a folder per process under the data directory's staging/, named `<host>-<pid>`. A process killed
// mid-run (kill -9, a crash) leaves copies of recordings there — unredacted ones included — and nobody else
// would ever remove them: at start, the folders of this host's processes that are no longer alive are deleted.
// The data directory may be shared by several machines (a network volume): a pid means nothing on another host,
// so another host's folder is deleted only once nothing in it has changed for a long time (that host is gone,
// or its run long over). A folder whose pid was reused by another process here stays until that one is gone too.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** This machine's name as used in folder names: anything but letters, digits, '.' and '_' becomes '_'. */
export function hostTag(hostname = os.hostname()): string {
  return hostname.replace(/[^A-Za-z0-9._]/g, '_') || 'host';
}

/** This process's staging folder. */
export function stagingDir(dataDir: string, pid = process.pid, host = hostTag()): string {
  return path.join(dataDir, 'staging', `${host}-${pid}`);
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

/** The newest modification time of an entry and everything under it. */
function newestChange(full: string): number {
  const stat = fs.lstatSync(full);
  let newest = stat.mtimeMs;
  if (stat.isDirectory()) {
    for (const name of fs.readdirSync(full)) newest = Math.max(newest, newestChange(path.join(full, name)));
  }
  return newest;
}

/**
 * Delete the staging folders of this host's processes that are gone, and whatever else is in staging/ (another
 * host's folders, folders of older builds named by pid alone, loose files) once nothing in it has changed for
 * `idleMs`. Answers how many entries went.
 */
export function sweepDeadStaging(dataDir: string, idleMs = 6 * 3600_000, now = Date.now(), host = hostTag()): number {
  const root = path.join(dataDir, 'staging');
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(root, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  const own = new RegExp(`^${host.replace(/\./g, '\\.')}-([0-9]+)$`);
  let removed = 0;
  for (const entry of entries) {
    const full = path.join(root, entry.name);
    const pid = entry.isDirectory() ? own.exec(entry.name)?.[1] : undefined;
    try {
      if (pid !== undefined) {
        if (Number(pid) === process.pid || alive(Number(pid))) continue;
      } else if (now - newestChange(full) <= idleMs) continue;
      fs.rmSync(full, { recursive: true, force: true });
      removed++;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return removed;
}
