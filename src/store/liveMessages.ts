// Messages of live conversations (real-call), appended in arrival order under engagementId or ucid, each with the
// redaction it was kept under (redact/conversationMessages.ts rewrites a kept message a later one completes).
import type { Kysely } from 'kysely';
import type { Tables } from './tables.js';

/** What a message was redacted under: its policy (as policyRecord gives it), and the kind its final digit group was masked as. */
export interface LiveRedaction {
  policy: object;
  held?: string;
}

export interface LiveMessage {
  /** The row (for rewriting it); not part of any answer. */
  id: number;
  sequence: number;
  receivedAt: string;
  message: Record<string, unknown>;
  redaction: LiveRedaction | null;
}

export class LiveMessageStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async append(conversationKey: string, message: Record<string, unknown>, redaction: LiveRedaction | null = null): Promise<{ sequence: number; receivedAt: string }> {
    const receivedAt = new Date().toISOString();
    const inserted = await this.db
      .insertInto('live_messages')
      .values({ conversation_key: conversationKey, message: JSON.stringify(message), received_at: receivedAt, redaction: redaction && JSON.stringify(redaction) })
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

  /** A kept message rewritten (redacted further: a later message completed a value it began). */
  async rewrite(id: number, message: Record<string, unknown>): Promise<void> {
    await this.db.updateTable('live_messages').set({ message: JSON.stringify(message) }).where('id', '=', id).execute();
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
    return rows.map((row, i) => ({
      id: row.id,
      sequence: i + 1,
      receivedAt: row.received_at,
      message: JSON.parse(row.message),
      redaction: row.redaction ? (JSON.parse(row.redaction) as LiveRedaction) : null,
    }));
  }
}
