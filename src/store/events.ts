// The event log: one event record (resource 1) per state change of a job, conversation, project or system.
import { type Kysely, sql } from 'kysely';
import { uuidv7 } from './ids.js';
import type { EventRecord } from '../schema/resources/eventRecord.js';
import type { Tables } from './tables.js';

export type EventType = 'job' | 'conversation' | 'stream' | 'project' | 'system';

export interface NewEvent {
  type: EventType;
  subType: string;
  subject?: string;
  status?: string;
  message?: string;
  details?: Record<string, unknown>;
  jobId?: string;
  conversationId?: string;
}

export class EventStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async record(event: NewEvent): Promise<EventRecord> {
    return (await this.recordAll([event]))[0];
  }

  /** Several events in one statement (in the order given: their ids, uuidv7, ascend). */
  async recordAll(events: readonly NewEvent[]): Promise<EventRecord[]> {
    if (events.length === 0) return [];
    const now = new Date().toISOString();
    const records = events.map((event): EventRecord => ({
      eventId: uuidv7(),
      type: event.type,
      subType: event.subType,
      status: event.status ?? event.subType,
      ...(event.message !== undefined && { message: event.message }),
      ...(event.details !== undefined && { details: JSON.stringify(event.details) }),
      ...(event.jobId !== undefined && { jobId: event.jobId }),
      ...(event.conversationId !== undefined && { conversationId: event.conversationId }),
      createdAt: now,
      timestamp: now,
    }));
    await this.db
      .insertInto('events')
      .values(
        events.map((event, i) => ({
          id: records[i].eventId!,
          type: event.type,
          sub_type: event.subType,
          subject: event.subject ?? null,
          // Linked to its job while the job exists (a conversation may name a job of another system, and the
          // `deleted` event comes after its job): the link never makes recording an event fail.
          job_id: event.jobId === undefined ? null : sql<string | null>`(select id from jobs where id = ${event.jobId})`,
          record: JSON.stringify(records[i]),
          created_at: now,
        })),
      )
      .execute();
    return records;
  }

  async list(options: { type?: string; subject?: string; limit: number; offset: number }): Promise<EventRecord[]> {
    let query = this.db.selectFrom('events').select('record');
    if (options.type) query = query.where('type', '=', options.type);
    if (options.subject) query = query.where('subject', '=', options.subject);
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).offset(options.offset).execute();
    return rows.map((row) => JSON.parse(row.record));
  }

  /** Events per day and type, newest day first, for the statistics endpoints. */
  async dailyCounts(days: number): Promise<{ day: string; type: string; subType: string; count: number }[]> {
    const since = new Date(Date.now() - days * 86400_000).toISOString();
    const rows = await this.db
      .selectFrom('events')
      .select((eb) => [
        eb.fn<string>('substr', ['created_at', eb.val(1), eb.val(10)]).as('day'),
        'type',
        'sub_type',
        eb.fn.countAll<number | string>().as('n'),
      ])
      .where('created_at', '>=', since)
      .groupBy(['day', 'type', 'sub_type'])
      .orderBy('day', 'desc')
      .execute();
    return rows.map((row) => ({ day: row.day, type: row.type, subType: row.sub_type, count: Number(row.n) }));
  }
}
