// Retention: `retentionPolicy` (days) schedules a finished job's deletion (audio, transcript, record);
// `autoDelete` removes the original recording as soon as the job ends, keeping the transcript and the
// redacted copy (what the user asked to keep). A sweeper in every worker process deletes what is due.
import type { Logger } from 'pino';
import { type BlobStore, keyFolder } from '../store/blobs/index.js';
import type { JobStore } from '../store/jobs.js';
import type { Store } from '../store/index.js';
import type { JobRow } from '../store/tables.js';
import { type RedactionPolicy, shorterRetention } from '../redact/policy.js';
import type { RedactedAudioRecord } from './originalAudio.js';
import type { TranscribeParams } from './request.js';

/**
 * When a job that ends `now` is to be deleted, or null to keep it: the retention of the policy resolved at submit
 * (the shorter of the request's and its project's), or the request's own for a job stored before policies had one.
 */
export function deleteAfter(params: TranscribeParams & { redactionPolicy?: unknown }, now: Date): string | null {
  const days = shorterRetention((params.redactionPolicy as RedactionPolicy | undefined)?.retentionDays, params.retentionPolicy);
  return retentionEnd(days, now);
}

/** `days` after `now` as an ISO time, or null when nothing is to be deleted. */
export function retentionEnd(days: number | undefined, now: Date): string | null {
  return days !== undefined && days > 0 ? new Date(now.getTime() + days * 86_400_000).toISOString() : null;
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

  /**
   * `removeJob` deletes a job with everything of it (the job service's delete); the store's stream messages and
   * post-call records with a retention of their own are deleted here.
   */
  constructor(
    private readonly store: Pick<Store, 'jobs' | 'streamMessages' | 'conversations' | 'events' | 'transaction'>,
    private readonly removeJob: (jobId: string) => Promise<void>,
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

  /** Delete every job, post-call record and kept stream message whose retention ran out by `now`; answers how many jobs. */
  async sweep(now = new Date()): Promise<number> {
    const at = now.toISOString();
    const messages = await this.store.streamMessages.deleteExpired(at);
    if (messages > 0) this.logger.info({ messages }, 'deleted kept stream messages whose retention ran out');
    await this.sweepRecords(at);
    let deleted = 0;
    for (;;) {
      const due = await this.store.jobs.expired(at, 100);
      if (due.length === 0) return deleted;
      for (const job of due) {
        await this.removeJob(job.id);
        deleted++;
      }
      if (deleted > 0) this.logger.info({ deleted }, 'deleted jobs whose retention ran out');
    }
  }

  /** Post-call records due: each deleted with a `conversation deleted` event (the audit trail of the deletion). */
  private async sweepRecords(at: string): Promise<void> {
    let deleted = 0;
    for (;;) {
      const due = await this.store.conversations.expired(at, 100);
      if (due.length === 0) break;
      for (const eventId of due) {
        await this.store.transaction(async (tx) => {
          if (await tx.conversations.delete(eventId)) {
            await tx.events.record({ type: 'conversation', subType: 'deleted', subject: eventId, status: 'deleted', message: 'retentionPolicy ran out', details: { eventId } });
          }
        });
        deleted++;
      }
    }
    if (deleted > 0) this.logger.info({ deleted }, 'deleted post-call records whose retention ran out');
  }
}
