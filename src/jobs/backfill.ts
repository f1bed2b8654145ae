// The start-up backfill (issue 35): calls stored before search (migration 0015), insight counts (0016) and call
// figures (0017) were queued once by migration 0017; each is brought level with a call stored today — a job's
// redacted transcript indexed (only when its redaction completed), an analysed job's insight results and figures
// kept (its analysis runs off the event loop, as on reading the job), a post-call record's redacted text indexed
// (only when it was redacted) and its insight results and figures kept (read from the stored record). A few calls
// at a time, yielding between them; each leaves the queue once done, so a restart resumes where it stopped. Only
// ever redacted text, as the live paths.
import { setImmediate as yieldTurn } from 'node:timers/promises';
import type { Logger } from 'pino';
import { keepInsightHits } from '../cache/recordInsightHits.js';
import { indexRecord } from '../cache/recordSearch.js';
import type { EventRecord } from '../schema/resources/eventRecord.js';
import type { Store } from '../store/index.js';
import type { Transcript } from '../transcript/types.js';
import { keepJobInsightHits } from './jobInsightHits.js';
import { indexRedactedJob } from './searchIndex.js';

/** Calls read from the queue at once. */
const BATCH = 20;

export interface BackfillOptions {
  store: Store;
  /** A completed job's analysis (analytics and conversation), as computed when the job is read. */
  analysisOf: (jobId: string, transcript: Transcript) => Promise<Pick<EventRecord, 'analytics' | 'conversation'>>;
  logger: Logger;
}

export class Backfill {
  private running: Promise<number> | undefined;
  private stopped = false;

  constructor(private readonly options: BackfillOptions) {}

  /** Start working through the queue in the background (once; a second call joins the first). */
  start(): void {
    this.stopped = false;
    void this.run().catch((error: Error) => this.options.logger.warn({ err: error }, 'backfill stopped'));
  }

  /** Stop after the call in hand (awaited, so the store is not closed under it). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running?.catch(() => undefined);
  }

  /** Work through the whole queue; answers how many calls were done. */
  run(): Promise<number> {
    this.running ??= this.drain().finally(() => (this.running = undefined));
    return this.running;
  }

  private async drain(): Promise<number> {
    const { store, logger } = this.options;
    let done = 0;
    const failed = new Set<string>();
    while (!this.stopped) {
      const batch = (await store.backfill.next(BATCH + failed.size)).filter((c) => !failed.has(`${c.kind}:${c.id}`));
      if (batch.length === 0) break;
      for (const call of batch) {
        if (this.stopped) break;
        try {
          if (call.kind === 'job') await this.job(call.id);
          else await this.record(call.id);
          await store.backfill.done(call.kind, call.id);
          done++;
        } catch (error) {
          // Left in the queue for the next start; this run goes on with the others.
          failed.add(`${call.kind}:${call.id}`);
          logger.warn({ err: error, kind: call.kind, id: call.id }, 'backfill of a call failed');
        }
        await yieldTurn();
      }
    }
    if (done > 0) logger.info({ calls: done }, 'backfill: calls stored before search and insight counts brought level');
    return done;
  }

  private async job(jobId: string): Promise<void> {
    const { store } = this.options;
    const row = await store.jobs.get(jobId);
    if (!row || row.status !== 'completed') return;
    if (row.redaction_status === 'completed') {
      const transcript = (await store.jobs.result(jobId)) as Transcript | undefined;
      if (transcript) await store.transaction((tx) => indexRedactedJob(tx, row, transcript));
    }
    if (row.insights_completed_at) await keepJobInsightHits(store, row, (transcript) => this.options.analysisOf(jobId, transcript));
  }

  private async record(eventId: string): Promise<void> {
    const { store } = this.options;
    const found = await store.conversations.get(eventId);
    if (!found) return;
    const record = found.record as EventRecord;
    // Redacted when stored: the policy's stamp (stampRedaction) says so; a record stored as sent is not indexed.
    const redacted = (record as { redaction?: unknown }).redaction !== undefined;
    await store.transaction(async (tx) => {
      await indexRecord(tx, eventId, record, redacted, found.updatedAt);
      await keepInsightHits(tx, eventId, record, found.updatedAt);
    });
  }
}
