// A stream's finals appended to stream_messages as they are sent (already redacted: nothing else is ever kept),
// one write after another in sequence order, off the path of the audio. A write that fails is not retried; the
// first failure is reported in the summary (`transcriptError`), never silent.
import type { StreamMessageStore } from '../store/streamMessages.js';
import type { JobRow } from '../store/tables.js';
import { retentionEnd } from '../jobs/retention.js';

/**
 * The stream whose after-call job this is (open.ts names the recording `stream-<id>.wav` and tracks the job by
 * the stream's id), or undefined: deleting that job — by a client, or by its retention — deletes the stream's
 * kept transcript too, so no copy of the call's words outlives the job.
 */
export function streamOfJob(job: Pick<JobRow, 'params' | 'file_name'>): string | undefined {
  const trackingId = (JSON.parse(job.params) as { tracking_id?: unknown }).tracking_id;
  return typeof trackingId === 'string' && job.file_name === `stream-${trackingId}.wav` ? trackingId : undefined;
}

export class TranscriptKeeper {
  private chain: Promise<void> = Promise.resolve();
  private failure: string | undefined;

  /**
   * `retentionDays`: a stream without an after-call job keeps its messages for its project's retentionPolicy
   * (each message that long after it was sent); with a job (or no retention) they stay until the job goes.
   */
  constructor(
    private readonly store: StreamMessageStore,
    private readonly streamId: string,
    private readonly retentionDays?: number,
    /** The call the stream carries (Twilio CallSid), kept with each message so the call's streams can be found. */
    private readonly callSid?: string,
  ) {}

  keep(message: { sequence: number; channel: number } & Record<string, unknown>): void {
    const deleteAfter = retentionEnd(this.retentionDays, new Date());
    this.chain = this.chain
      .then(() => this.store.append(this.streamId, message.sequence, message.channel, message, deleteAfter, this.callSid))
      .catch((error: unknown) => {
        this.failure ??= (error as Error).message;
      });
  }

  /** Every write done; answers the first failure, if any. */
  async settled(): Promise<string | undefined> {
    await this.chain;
    return this.failure;
  }
}
