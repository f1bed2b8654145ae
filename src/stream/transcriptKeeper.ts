// A stream's finals appended to stream_messages as they are sent (already redacted: nothing else is ever kept),
// one write after another in sequence order, off the path of the audio. A write that fails is not retried; the
// first failure is reported in the summary (`transcriptError`), never silent.
import type { StreamMessageStore } from '../store/streamMessages.js';

export class TranscriptKeeper {
  private chain: Promise<void> = Promise.resolve();
  private failure: string | undefined;

  constructor(
    private readonly store: StreamMessageStore,
    private readonly streamId: string,
  ) {}

  keep(message: { sequence: number; channel: number } & Record<string, unknown>): void {
    this.chain = this.chain
      .then(() => this.store.append(this.streamId, message.sequence, message.channel, message))
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
