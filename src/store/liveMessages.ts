// Messages of live conversations (real-call), appended in arrival order under engagementId or ucid.
import type { Kysely } from 'kysely';
import type { Tables } from './tables.js';

export interface LiveMessage {
  sequence: number;
  receivedAt: string;
  message: Record<string, unknown>;
}

export class LiveMessageStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async append(conversationKey: string, message: Record<string, unknown>): Promise<{ sequence: number; receivedAt: string }> {
    const receivedAt = new Date().toISOString();
    const inserted = await this.db
      .insertInto('live_messages')
      .values({ conversation_key: conversationKey, message: JSON.stringify(message), received_at: receivedAt })
      .returning('id')
      .executeTakeFirstOrThrow();
    // The sequence is the message's position in its conversation, counted from 1.
    const row = await this.db
      .selectFrom('live_messages')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('conversation_key', '=', conversationKey)
      .where('id', '<=', inserted.id)
      .executeTakeFirstOrThrow();
    return { sequence: Number(row.n), receivedAt };
  }

  /** Live conversations whose last message arrived before `before` (ISO time), with that time. */
  async idleSince(before: string, limit = 100): Promise<{ conversationKey: string; lastReceivedAt: string }[]> {
    const rows = await this.db
      .selectFrom('live_messages')
      .select((eb) => ['conversation_key', eb.fn.max('received_at').as('last')])
      .groupBy('conversation_key')
      .having((eb) => eb.fn.max('received_at'), '<', before)
      .orderBy('conversation_key')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ conversationKey: r.conversation_key, lastReceivedAt: String(r.last) }));
  }

  async list(conversationKey: string): Promise<LiveMessage[]> {
    const rows = await this.db
      .selectFrom('live_messages')
      .selectAll()
      .where('conversation_key', '=', conversationKey)
      .orderBy('id')
      .execute();
    return rows.map((row, i) => ({ sequence: i + 1, receivedAt: row.received_at, message: JSON.parse(row.message) }));
  }
}
