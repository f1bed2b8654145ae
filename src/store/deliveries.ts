// The notification outbox table: one row per delivery (an event record to send to one url), kept until it
// is delivered or given up. Dispatchers (one per process, any number of processes) claim due rows with a
// lease; the lease end doubles as the claim's fencing token, so a dispatcher whose lease ran out (a slow
// send, a paused or killed process) can no longer change a row that another one has claimed since.
import { type Kysely, PostgresAdapter, type RawBuilder, sql } from 'kysely';
import type { DeliveryRow, Tables } from './tables.js';

/**
 * `pending`: waiting for its next attempt (next_attempt_at); `sending`: claimed by a dispatcher until
 * next_attempt_at (the lease), due again if that passes without an outcome; `delivered`: answered 2xx;
 * `failed`: refused with a final status, or retries spent.
 */
export type DeliveryStatus = 'pending' | 'sending' | 'delivered' | 'failed';
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'sending', 'delivered', 'failed'];

/** One attempt, as kept in the row's log. */
export interface DeliveryAttempt {
  /** When the attempt started (ISO 8601). */
  at: string;
  statusCode?: number;
  /** Why no response came (network error, timeout), or why the delivery was given up. */
  error?: string;
  /** Absent for an interrupted attempt (its dispatcher stopped before recording an outcome). */
  durationMs?: number;
  /** The attempt was started but its outcome never recorded; the delivery was claimed again after its lease. */
  interrupted?: true;
  /** Not an attempt: the failed delivery was queued again (redeliver), starting a new round of attempts. */
  requeued?: true;
}

/** The log entry for an attempt whose dispatcher died (or lost its lease) before recording an outcome. */
export const INTERRUPTED_ERROR = 'interrupted: no outcome was recorded before the claim expired (process stopped?); sent again';

export interface NewDelivery {
  id: string;
  jobId: string;
  url: string;
  method: string;
  /** JSON array of sealed "Name: value" lines. */
  headers: string;
  /** The event record as JSON: the exact body sent (and signed). */
  payload: string;
  /** First attempt not before (default: at once). */
  nextAttemptAt?: Date;
  now?: Date;
}

export class DeliveryStore {
  private readonly postgres: boolean;

  constructor(private readonly db: Kysely<Tables>) {
    this.postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  }

  /** Add a delivery; false (and nothing written) when one with this id exists already. */
  async insert(delivery: NewDelivery): Promise<boolean> {
    const now = (delivery.now ?? new Date()).toISOString();
    const result = await this.db
      .insertInto('deliveries')
      .values({
        id: delivery.id,
        job_id: delivery.jobId,
        url: delivery.url,
        method: delivery.method,
        headers: delivery.headers,
        payload: delivery.payload,
        status: 'pending',
        attempts: 0,
        next_attempt_at: (delivery.nextAttemptAt ?? delivery.now ?? new Date()).toISOString(),
        log: '[]',
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  async get(id: string): Promise<DeliveryRow | undefined> {
    return this.db.selectFrom('deliveries').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Claim up to `limit` due deliveries (pending and due, or sending with an expired lease) for `leaseMs`:
   * they turn `sending` with next_attempt_at = the lease end, which is also the claim token the returned
   * rows carry. One statement: on PostgreSQL the candidates are locked with FOR UPDATE SKIP LOCKED, so
   * concurrent dispatchers take disjoint rows without waiting; on SQLite the statement holds the write
   * lock. Either way the due condition is checked again on the row it updates, so no row is ever claimed
   * twice for one lease. A row taken back from an expired claim gets that attempt logged as interrupted
   * (and counted), so the log shows every send that may have reached the receiver.
   */
  async claimDue(now: Date, limit: number, leaseMs: number): Promise<DeliveryRow[]> {
    if (limit <= 0) return [];
    const at = now.toISOString();
    const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
    const due = this.db
      .selectFrom('deliveries')
      .select('id')
      .where('status', 'in', ['pending', 'sending'])
      .where('next_attempt_at', '<=', at)
      .orderBy('next_attempt_at')
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .$if(this.postgres, (q) => q.forUpdate().skipLocked());
    const rows = await this.db
      .updateTable('deliveries')
      .set({
        status: 'sending',
        next_attempt_at: leaseUntil,
        updated_at: at,
        // In SET, columns name the row as it was: status 'sending' here means a claim that expired.
        attempts: sql<number>`case when status = 'sending' then attempts + 1 else attempts end`,
        log: sql<string>`case when status = 'sending' then ${this.append(this.interruptedEntry())} else log end`,
      })
      // On PostgreSQL `id IN (subquery)` may run the locking subquery more than once (a rescan skips the rows
      // it just locked and finds others), claiming more than `limit`; ARRAY(...) runs it exactly once.
      .$if(this.postgres, (q) => q.where(sql<boolean>`id = any(array(${due}))`))
      .$if(!this.postgres, (q) => q.where('id', 'in', due))
      .where('status', 'in', ['pending', 'sending'])
      .where('next_attempt_at', '<=', at)
      .returningAll()
      .execute();
    return rows.map(normalize).sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  /** Append one attempt to the log and count it; answers the attempts made so far. */
  async recordAttempt(id: string, attempt: DeliveryAttempt, now: Date = new Date()): Promise<number> {
    const log = this.append(sql`${JSON.stringify(attempt)}`);
    const row = await this.db
      .updateTable('deliveries')
      .set((eb) => ({ log, attempts: eb('attempts', '+', 1), updated_at: now.toISOString() }))
      .where('id', '=', id)
      .returning('attempts')
      .executeTakeFirst();
    return row ? Number(row.attempts) : 0;
  }

  /** The log column with one JSON entry (an SQL expression giving JSON text) appended, in one statement. */
  private append(entry: RawBuilder<unknown>): RawBuilder<string> {
    return this.postgres
      ? sql<string>`(coalesce(nullif(log, ''), '[]')::jsonb || jsonb_build_array((${entry})::jsonb))::text`
      : sql<string>`json_insert(coalesce(nullif(log, ''), '[]'), '$[#]', json(${entry}))`;
  }

  /** An interrupted attempt's entry, built from the row's own updated_at (the time of the claim that expired). */
  private interruptedEntry(): RawBuilder<unknown> {
    return this.postgres
      ? sql`jsonb_build_object('at', updated_at, 'error', ${INTERRUPTED_ERROR}::text, 'interrupted', true)::text`
      : sql`json_object('at', updated_at, 'error', ${INTERRUPTED_ERROR}, 'interrupted', json('true'))`;
  }

  /** Sent and answered 2xx. False when the claim (`leaseUntil`) is no longer this caller's. */
  markDelivered(id: string, leaseUntil: string, now: Date = new Date()): Promise<boolean> {
    return this.transition(id, leaseUntil, { status: 'delivered', next_attempt_at: now.toISOString() }, now);
  }

  /** Given up. False when the claim is no longer this caller's. */
  markFailed(id: string, leaseUntil: string, now: Date = new Date()): Promise<boolean> {
    return this.transition(id, leaseUntil, { status: 'failed', next_attempt_at: now.toISOString() }, now);
  }

  /** Due again at `at` (a retry, or `now` to hand an unfinished claim back). False when the claim is gone. */
  reschedule(id: string, leaseUntil: string, at: Date, now: Date = new Date()): Promise<boolean> {
    return this.transition(id, leaseUntil, { status: 'pending', next_attempt_at: at.toISOString() }, now);
  }

  private async transition(
    id: string,
    leaseUntil: string,
    change: { status: DeliveryStatus; next_attempt_at: string },
    now: Date,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('deliveries')
      .set({ ...change, updated_at: now.toISOString() })
      .where('id', '=', id)
      .where('status', '=', 'sending')
      .where('next_attempt_at', '=', leaseUntil)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Queue a failed delivery of `jobId` again: pending, due at `now`, its attempts counted from 0 (a new round
   * of the schedule), a `requeued` entry in its log. One statement, so two requests cannot both requeue it.
   * Answers the row as it is now, or undefined when the job has no failed delivery of that id.
   */
  async requeueFailed(jobId: string, id: string, now: Date = new Date()): Promise<DeliveryRow | undefined> {
    const at = now.toISOString();
    const row = await this.db
      .updateTable('deliveries')
      .set({ status: 'pending', attempts: 0, next_attempt_at: at, updated_at: at, log: this.append(sql`${JSON.stringify({ at, requeued: true })}`) })
      .where('id', '=', id)
      .where('job_id', '=', jobId)
      .where('status', '=', 'failed')
      .returningAll()
      .executeTakeFirst();
    return row && normalize(row);
  }

  /** A job's deliveries, oldest first. */
  async listByJob(jobId: string): Promise<DeliveryRow[]> {
    const rows = await this.db.selectFrom('deliveries').selectAll().where('job_id', '=', jobId).orderBy('created_at').orderBy('id').execute();
    return rows.map(normalize);
  }

  /** The deliveries of many jobs in one query (a page of a job list), each job's in the order of listByJob. */
  async listByJobs(jobIds: readonly string[]): Promise<Map<string, DeliveryRow[]>> {
    const byJob = new Map<string, DeliveryRow[]>(jobIds.map((id) => [id, []]));
    if (jobIds.length === 0) return byJob;
    const rows = await this.db.selectFrom('deliveries').selectAll().where('job_id', 'in', [...jobIds]).orderBy('created_at').orderBy('id').execute();
    for (const row of rows) byJob.get(row.job_id)?.push(normalize(row));
    return byJob;
  }

  /** How many deliveries are in each status (every status present, 0 when none), for metrics and status pages. */
  async countByStatus(): Promise<Record<DeliveryStatus, number>> {
    const rows = await this.db
      .selectFrom('deliveries')
      .select((eb) => ['status', eb.fn.countAll<number | string>().as('n')])
      .groupBy('status')
      .execute();
    const counts = Object.fromEntries(DELIVERY_STATUSES.map((s) => [s, 0])) as Record<DeliveryStatus, number>;
    for (const row of rows) counts[row.status as DeliveryStatus] = Number(row.n);
    return counts;
  }

  /** Remove a job's deliveries (when the job is deleted). */
  async deleteByJob(jobId: string): Promise<number> {
    const result = await this.db.deleteFrom('deliveries').where('job_id', '=', jobId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

function normalize(row: DeliveryRow): DeliveryRow {
  return { ...row, attempts: Number(row.attempts) };
}

/** The attempts of a row's log. */
export function parseLog(row: Pick<DeliveryRow, 'log'>): DeliveryAttempt[] {
  try {
    const log = JSON.parse(row.log || '[]');
    return Array.isArray(log) ? log : [];
  } catch {
    return [];
  }
}
