// Retention: `retentionPolicy` (days) schedules a finished job's deletion (audio, transcript, record);
// `autoDelete` removes the original recording as soon as the job ends, keeping the transcript and the
// redacted copy (what the user asked to keep). A sweeper in every worker process deletes what is due.
import type { Logger } from 'pino';
import { type BlobStore, keyFolder } from '../store/blobs/index.js';
import type { JobStore } from '../store/jobs.js';
import type { JobRow } from '../store/tables.js';
import type { RedactedAudioRecord } from './originalAudio.js';
import type { TranscribeParams } from './request.js';

/** When a job that ends `now` is to be deleted, or null to keep it. */
export function deleteAfter(params: TranscribeParams, now: Date): string | null {
  const days = params.retentionPolicy ?? 0;
  return days > 0 ? new Date(now.getTime() + days * 86_400_000).toISOString() : null;
}

/**
 * After a job ended: drop its original recording when `autoDelete` asks (a kept original too: autoDelete
 * wins over keepOriginal). A redacted copy stays and becomes the job's recording.
 */
export async function applyAutoDelete(row: JobRow, jobs: JobStore, blobs: BlobStore): Promise<void> {
  const params = JSON.parse(row.params) as TranscribeParams;
  if (params.autoDelete !== true || !row.audio_path) return;
  const copy = ((await jobs.redaction(row.id)) as { audio?: RedactedAudioRecord } | undefined)?.audio?.path;
  if (copy === row.audio_path) return; // only the redacted copy is left
  if (copy && (await blobs.head(copy))) {
    await jobs.update(row.id, { audio_path: copy });
    await blobs.delete(row.audio_path);
    return;
  }
  await blobs.deletePrefix(`${keyFolder(row.audio_path)}/`);
  await jobs.update(row.id, { audio_path: null });
}

export class RetentionSweeper {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly jobs: JobStore,
    private readonly remove: (jobId: string) => Promise<void>,
    private readonly logger: Logger,
    private readonly everyMs = 10 * 60_000,
  ) {}

  start(): void {
    const tick = () => {
      void this.sweep()
        .catch((error) => this.logger.error({ err: error }, 'retention sweep failed'))
        .finally(() => {
          this.timer = setTimeout(tick, this.everyMs);
          this.timer.unref();
        });
    };
    this.timer = setTimeout(tick, Math.min(this.everyMs, 1000));
    this.timer.unref();
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  /** Delete every job whose retention ran out; answers how many. */
  async sweep(): Promise<number> {
    let deleted = 0;
    for (;;) {
      const due = await this.jobs.expired(new Date().toISOString(), 100);
      if (due.length === 0) return deleted;
      for (const job of due) {
        await this.remove(job.id);
        deleted++;
      }
      if (deleted > 0) this.logger.info({ deleted }, 'deleted jobs whose retention ran out');
    }
  }
}
