// The calls stored before migration 0017 (and so, perhaps, before 0015 search / 0016 insight hits), queued once
// by that migration for the start-up backfill (jobs/backfill.ts); a call leaves the queue once done.
import { type Kysely, sql } from 'kysely';
import type { Tables } from './tables.js';

export type BackfillKind = 'job' | 'record';

export class BackfillQueueStore {
  constructor(private readonly db: Kysely<Tables>) {}

  /** The next calls owed, at most `limit`, in a stable order. */
  async next(limit: number): Promise<{ kind: BackfillKind; id: string }[]> {
    const { rows } = await sql<{ kind: BackfillKind; ref_id: string }>`select kind, ref_id from backfill_queue order by kind, ref_id limit ${limit}`.execute(this.db);
    return rows.map((r) => ({ kind: r.kind, id: r.ref_id }));
  }

  async done(kind: BackfillKind, id: string): Promise<void> {
    await sql`delete from backfill_queue where kind = ${kind} and ref_id = ${id}`.execute(this.db);
  }

  /** Queue a call (tests; the migration queues the calls it finds). */
  async add(kind: BackfillKind, id: string): Promise<void> {
    await sql`insert into backfill_queue (kind, ref_id) values (${kind}, ${id})`.execute(this.db);
  }

  async size(): Promise<number> {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from backfill_queue`.execute(this.db);
    return Number(rows[0]?.n ?? 0);
  }
}
