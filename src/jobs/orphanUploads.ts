// Uploads are streamed to the data directory's tmp folder and moved into their job's folder once accepted;
// a request cut short (a crash, a client that went away in a way no handler saw) leaves its file there. Those
// are deleted at start and then every few minutes while the service runs, so that a long-running process does not
// collect them until its disk is full. Only files untouched for a while go: another process sharing the data
// directory may be receiving an upload right now (a file being written is touched with every chunk; a live
// stream's recording is touched while the stream is open, stream/registry.ts).
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';

/** An upload untouched this long (ms) belongs to no live request. */
export const ORPHAN_AGE_MS = 15 * 60_000;
/** How often a running service sweeps (ms), by default. */
export const ORPHAN_SWEEP_MS = 5 * 60_000;

export function uploadTempDir(dataDir: string): string {
  return path.join(dataDir, 'tmp');
}

/** Delete what in the upload temp dir was last written more than `olderThanMs` ago; answers how many entries. */
export async function sweepOrphanUploads(dataDir: string, olderThanMs = ORPHAN_AGE_MS, now = Date.now()): Promise<number> {
  const dir = uploadTempDir(dataDir);
  let entries: string[];
  try {
    entries = await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const name of entries) {
    const entry = path.join(dir, name);
    try {
      if (now - (await fs.lstat(entry)).mtimeMs <= olderThanMs) continue;
      await fs.rm(entry, { recursive: true, force: true });
      removed++;
    } catch (error) {
      // Gone meanwhile (its request finished): nothing to sweep.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return removed;
}

/** Sweeps every `intervalMs` until stopped (0: never); a failed sweep is logged and tried again at the next. */
export class OrphanUploadSweep {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly dataDir: string,
    private readonly logger: Logger,
    private readonly intervalMs = ORPHAN_SWEEP_MS,
  ) {}

  start(): void {
    if (this.timer || this.intervalMs <= 0) return;
    this.timer = setInterval(() => {
      this.running ??= this.sweep().finally(() => (this.running = undefined));
    }, this.intervalMs);
    this.timer.unref();
  }

  private async sweep(): Promise<void> {
    try {
      const removed = await sweepOrphanUploads(this.dataDir);
      if (removed > 0) this.logger.info({ removed }, 'deleted uploads left in the temp dir by requests that never finished');
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'sweeping the upload temp dir failed');
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
