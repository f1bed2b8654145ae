// Conversation event records (post-call), stored whole as JSON with credentials already sealed.
import type { Kysely } from 'kysely';
import type { Tables } from './tables.js';

export interface StoredConversation {
  eventId: string;
  conversationId: string | null;
  jobId: string | null;
  status: string;
  record: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  /** When the record is deleted (its retentionPolicy), ISO time; null: kept. */
  deleteAfter: string | null;
}

export class ConversationStore {
  constructor(private readonly db: Kysely<Tables>) {}

  /**
   * Insert or replace the record of an eventId; answers whether it was new. The insert decides, so that of
   * concurrent first posts of one eventId exactly one is "created".
   */
  async save(entry: Omit<StoredConversation, 'createdAt' | 'updatedAt' | 'deleteAfter'> & { deleteAfter?: string | null }): Promise<{ created: boolean }> {
    const now = new Date().toISOString();
    const text = JSON.stringify(entry.record);
    const row = {
      event_id: entry.eventId,
      conversation_id: entry.conversationId,
      job_id: entry.jobId,
      status: entry.status,
      record: text,
      size: Buffer.byteLength(text),
      created_at: now,
      updated_at: now,
      delete_after: entry.deleteAfter ?? null,
    };
    const inserted = await this.db
      .insertInto('conversations')
      .values(row)
      .onConflict((oc) => oc.column('event_id').doNothing())
      .returning('event_id')
      .executeTakeFirst();
    if (inserted) return { created: true };
    await this.db
      .updateTable('conversations')
      .set({
        conversation_id: row.conversation_id,
        job_id: row.job_id,
        status: row.status,
        record: row.record,
        size: row.size,
        updated_at: now,
        delete_after: row.delete_after,
      })
      .where('event_id', '=', entry.eventId)
      .execute();
    return { created: false };
  }

  async get(eventId: string): Promise<StoredConversation | undefined> {
    const row = await this.db.selectFrom('conversations').selectAll().where('event_id', '=', eventId).executeTakeFirst();
    return (
      row && {
        eventId: row.event_id,
        conversationId: row.conversation_id,
        jobId: row.job_id,
        status: row.status,
        record: JSON.parse(row.record),
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        deleteAfter: row.delete_after,
      }
    );
  }

  /** Records whose retention ran out by `now` (event ids), at most `limit`. */
  async expired(now: string, limit: number): Promise<string[]> {
    const rows = await this.db.selectFrom('conversations').select('event_id').where('delete_after', 'is not', null).where('delete_after', '<=', now).orderBy('delete_after').limit(limit).execute();
    return rows.map((r) => r.event_id);
  }

  /** A record deleted; answers whether there was one. */
  async delete(eventId: string): Promise<boolean> {
    const result = await this.db.deleteFrom('conversations').where('event_id', '=', eventId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('conversations')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
