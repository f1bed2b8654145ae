// The finals of live streams, as sent (redacted), under the stream's id and sequence number: the live transcript
// kept (issue 19), read by GET /asr/stream/{streamId}/messages.
import type { Kysely } from 'kysely';
import type { Tables } from './tables.js';

export interface StreamMessage {
  sequence: number;
  channel: number;
  createdAt: string;
  message: Record<string, unknown>;
}

export class StreamMessageStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async append(streamId: string, sequence: number, channel: number, message: Record<string, unknown>, deleteAfter: string | null = null, callSid?: string): Promise<void> {
    await this.db
      .insertInto('stream_messages')
      .values({ stream_id: streamId, sequence, channel, message: JSON.stringify(message), created_at: new Date().toISOString(), delete_after: deleteAfter, call_sid: callSid ?? null })
      .execute();
  }

  /** The streams that carried a call (by its callSid), oldest first, with how many finals each kept. */
  async streamsOfCall(callSid: string): Promise<{ streamId: string; messages: number; firstAt: string; lastAt: string }[]> {
    const rows = await this.db
      .selectFrom('stream_messages')
      .select((eb) => ['stream_id', eb.fn.countAll<number | string>().as('n'), eb.fn.min('created_at').as('first_at'), eb.fn.max('created_at').as('last_at')])
      .where('call_sid', '=', callSid)
      .groupBy('stream_id')
      .orderBy('first_at')
      .limit(1000)
      .execute();
    return rows.map((r) => ({ streamId: r.stream_id, messages: Number(r.n), firstAt: String(r.first_at), lastAt: String(r.last_at) }));
  }

  /**
   * Every stream with kept finals, the most recently active first (its last final), with the call it carried
   * when one was named; paged.
   */
  async streams(options: { limit: number; offset: number }): Promise<{ streamId: string; callSid: string | null; messages: number; firstAt: string; lastAt: string }[]> {
    const rows = await this.db
      .selectFrom('stream_messages')
      .select((eb) => ['stream_id', eb.fn.max('call_sid').as('call_sid'), eb.fn.countAll<number | string>().as('n'), eb.fn.min('created_at').as('first_at'), eb.fn.max('created_at').as('last_at')])
      .groupBy('stream_id')
      .orderBy('last_at', 'desc')
      .orderBy('stream_id')
      .limit(options.limit)
      .offset(options.offset)
      .execute();
    return rows.map((r) => ({ streamId: r.stream_id, callSid: r.call_sid === null ? null : String(r.call_sid), messages: Number(r.n), firstAt: String(r.first_at), lastAt: String(r.last_at) }));
  }

  /** Messages whose retention ran out by `now` deleted; answers how many. */
  async deleteExpired(now: string): Promise<number> {
    const result = await this.db.deleteFrom('stream_messages').where('delete_after', 'is not', null).where('delete_after', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** A stream's messages in sequence order, those after `afterSequence`, at most `limit`. */
  async list(streamId: string, options: { afterSequence?: number; limit: number }): Promise<StreamMessage[]> {
    const rows = await this.db
      .selectFrom('stream_messages')
      .selectAll()
      .where('stream_id', '=', streamId)
      .where('sequence', '>', options.afterSequence ?? 0)
      .orderBy('sequence')
      .limit(options.limit)
      .execute();
    return rows.map((r) => ({ sequence: r.sequence, channel: r.channel, createdAt: r.created_at, message: JSON.parse(r.message) }));
  }

  /** A stream's kept transcript removed (its after-call job was deleted); answers how many messages went. */
  async deleteStream(streamId: string): Promise<number> {
    const result = await this.db.deleteFrom('stream_messages').where('stream_id', '=', streamId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async count(streamId: string): Promise<number> {
    const row = await this.db
      .selectFrom('stream_messages')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('stream_id', '=', streamId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
