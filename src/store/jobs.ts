// Jobs and their results. The jobs table is also the durable queue: a worker claims a job by a conditional
// update that takes a lease; a job whose lease runs out (its worker died) is claimable again. Leases are on the
// database's clock, and every write a run makes is fenced by its claim (JobRun).
import crypto from 'node:crypto';
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import { dbTime } from './dbClock.js';
import type { JobRow, Tables } from './tables.js';

export type JobStatus = 'queued' | 'processing' | 'completed' | 'failed' | 'cancelled';
export const TERMINAL: readonly JobStatus[] = ['completed', 'failed', 'cancelled'];

/**
 * One claim of a job by a worker: the fencing token every write of the run carries. `runId` is new at every
 * claim (a resubmitted job claimed again by the same process is another run); `workerId` names the process.
 */
export interface JobRun {
  jobId: string;
  runId: string;
  workerId: string;
  attempt: number;
}

export interface JobClaim {
  job: JobRow;
  run: JobRun;
  /** The job was processing under a lease that ran out (its worker stopped), not queued. */
  takenOver: boolean;
}

export interface JobListQuery {
  status?: JobStatus;
  /** The request's tracking_id, exactly. */
  trackingId?: string;
  /** The project (sid), exactly. */
  sid?: string;
  /** The telephony call's id (callSid), exactly. */
  callSid?: string;
  /** Created at or after (ISO time). */
  from?: string;
  /** Created before (ISO time). */
  to?: string;
  /** Keyset paging: only jobs after this one in the list's order (newest first, then id). */
  after?: { createdAt: string; id: string };
  limit: number;
  offset: number;
}

export class JobStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async insert(row: JobRow): Promise<void> {
    await this.db.insertInto('jobs').values(row).execute();
  }

  async get(id: string): Promise<JobRow | undefined> {
    return this.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * A page of jobs, newest first (ties by id). `total` counts every job matching the filters (not the cursor);
   * `after` continues from a job of an earlier page, which stays stable while jobs are added or deleted.
   */
  async list(query: JobListQuery): Promise<{ total: number; jobs: JobRow[] }> {
    let q = this.db.selectFrom('jobs');
    if (query.status) q = q.where('status', '=', query.status);
    if (query.trackingId !== undefined) q = q.where('tracking_id', '=', query.trackingId);
    if (query.sid !== undefined) q = q.where('sid', '=', query.sid);
    if (query.callSid !== undefined) q = q.where('call_sid', '=', query.callSid);
    if (query.from !== undefined) q = q.where('created_at', '>=', query.from);
    if (query.to !== undefined) q = q.where('created_at', '<', query.to);
    const total = await q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
    const after = query.after;
    if (after) {
      q = q.where((eb) => eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '>', after.id)])]));
    }
    const jobs = await q.selectAll().orderBy('created_at', 'desc').orderBy('id').limit(query.limit).offset(query.offset).execute();
    return { total: Number(total.n), jobs };
  }

  /**
   * Claim the next job: highest priority first, then oldest. Answers undefined when none is due. Due: queued, or
   * processing with its lease run out on the database's clock (its worker stopped renewing: the process ended,
   * or lost the database). Every claim gets a fresh run id: the fencing token of everything the run writes.
   * A queued job with a lease_until waits until then (requeued to wait for its storage, see requeue).
   */
  async claimNext(workerId: string, leaseMs: number): Promise<JobClaim | undefined> {
    const due = (eb: ExpressionBuilder<Tables, 'jobs'>) =>
      eb.or([
        eb.and([eb('status', '=', 'queued'), eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', dbTime(this.db))])]),
        eb.and([eb('status', '=', 'processing'), eb('lease_until', '<', dbTime(this.db))]),
      ]);
    for (let attempt = 0; attempt < 5; attempt++) {
      const candidate = await this.db
        .selectFrom('jobs')
        .select(['id', 'status'])
        .where(due)
        .orderBy('priority', 'desc')
        .orderBy('created_at')
        .limit(1)
        .executeTakeFirst();
      if (!candidate) return undefined;
      const runId = crypto.randomUUID();
      const claimed = await this.db
        .updateTable('jobs')
        .set((eb) => ({
          status: 'processing',
          worker_id: workerId,
          run_id: runId,
          lease_until: dbTime(this.db, leaseMs),
          attempts: eb('attempts', '+', 1),
          started_at: dbTime(this.db),
          updated_at: dbTime(this.db),
          last_error: null,
        }))
        .where('id', '=', candidate.id)
        // The same condition again: of two workers racing for this job, one update matches.
        .where(due)
        .returningAll()
        .executeTakeFirst();
      if (claimed) {
        const run: JobRun = { jobId: claimed.id, runId, workerId, attempt: Number(claimed.attempts) };
        return { job: { ...claimed, attempts: Number(claimed.attempts) }, run, takenOver: candidate.status === 'processing' };
      }
    }
    return undefined;
  }

  /** The fence: the job is still processing in this run, and the run's lease has not run out (database clock). */
  private held(run: JobRun) {
    return (eb: ExpressionBuilder<Tables, 'jobs'>) =>
      eb.and([
        eb('jobs.id', '=', run.jobId),
        eb('jobs.run_id', '=', run.runId),
        eb('jobs.status', '=', 'processing'),
        eb('jobs.lease_until', '>', dbTime(this.db)),
      ]);
  }

  /** Extend a run's lease; answers false when the run no longer holds its job (cancelled, deleted, taken over). */
  async renewLease(run: JobRun, leaseMs: number): Promise<boolean> {
    const result = await this.db.updateTable('jobs').set({ lease_until: dbTime(this.db, leaseMs) }).where(this.held(run)).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Check a run still holds its job, and lock the row: called first in a transaction, it makes the rest of the
   * transaction's writes conditional on the run (PostgreSQL holds the row lock until commit; SQLite the write lock).
   */
  async hold(run: JobRun): Promise<boolean> {
    const result = await this.db.updateTable('jobs').set({ updated_at: dbTime(this.db) }).where(this.held(run)).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Change a job's columns, only while `run` holds it; false (nothing written) when it does not. */
  async updateHeld(run: JobRun, changes: Partial<JobRow>): Promise<boolean> {
    const { id: _id, run_id: _run, status: _status, ...allowed } = changes;
    const result = await this.db
      .updateTable('jobs')
      .set({ ...allowed, updated_at: dbTime(this.db) })
      .where(this.held(run))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Move a job a run holds to a terminal state; answers false when it no longer holds it. */
  async finish(
    run: JobRun,
    outcome: {
      status: 'completed' | 'failed';
      error?: string;
      audioSeconds?: number;
      processingSeconds?: number;
      model?: string;
      deleteAfter?: string | null;
      redactionStatus?: string;
      /** What a failed redaction did before it gave up (kept on the job); any other outcome clears it. */
      redactionRecord?: unknown;
    },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({
        status: outcome.status,
        last_error: outcome.error ?? null,
        audio_seconds: outcome.audioSeconds ?? null,
        processing_seconds: outcome.processingSeconds ?? null,
        ...(outcome.model && { model: outcome.model }),
        delete_after: outcome.deleteAfter ?? null,
        ...(outcome.redactionStatus && { redaction_status: outcome.redactionStatus }),
        redaction_failure: outcome.redactionRecord === undefined ? null : JSON.stringify(outcome.redactionRecord),
        lease_until: null,
        completed_at: dbTime(this.db),
        updated_at: dbTime(this.db),
      })
      .where(this.held(run))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Give a job a run holds back to the queue (a transient failure); false when it no longer holds it. `waitMs`:
   * not claimed again before then, and the attempt not counted (the job waited on something outside it: its
   * storage could not be reached).
   */
  async requeue(run: JobRun, error: string, waitMs?: number): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set((eb) => ({
        status: 'queued',
        last_error: error,
        worker_id: null,
        run_id: null,
        lease_until: waitMs === undefined ? null : dbTime(this.db, waitMs),
        ...(waitMs !== undefined && { attempts: eb('attempts', '-', 1) }),
        updated_at: dbTime(this.db),
      }))
      .where(this.held(run))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async setStatus(id: string, from: readonly string[], to: JobStatus, changes: Partial<JobRow> = {}): Promise<boolean> {
    const now = new Date().toISOString();
    const result = await this.db
      .updateTable('jobs')
      .set({ ...changes, status: to, updated_at: now })
      .where('id', '=', id)
      .where('status', 'in', [...from])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async update(id: string, changes: Partial<JobRow>): Promise<void> {
    await this.db.updateTable('jobs').set({ ...changes, updated_at: new Date().toISOString() }).where('id', '=', id).execute();
  }

  /** Delete a job; its results and deliveries go with it (foreign keys, ON DELETE CASCADE). */
  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('jobs').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Store a run's transcript, only while the run holds its job: the row is inserted from a SELECT of the job
   * that checks the fence, in one statement (and the foreign key refuses a job deleted meanwhile). False when
   * the run lost its job: nothing is written.
   */
  async saveResult(run: JobRun, transcript: unknown, redaction?: unknown): Promise<boolean> {
    const text = JSON.stringify(transcript);
    const redactionText = redaction === undefined ? null : JSON.stringify(redaction);
    const result = await this.db
      .insertInto('job_results')
      .columns(['job_id', 'transcript', 'redaction', 'created_at'])
      .expression(
        this.db
          .selectFrom('jobs')
          .select([
            'jobs.id as job_id',
            sql<string>`cast(${text} as text)`.as('transcript'),
            sql<string | null>`cast(${redactionText} as text)`.as('redaction'),
            dbTime(this.db).as('created_at'),
          ])
          .where(this.held(run)),
      )
      .onConflict((oc) =>
        oc.column('job_id').doUpdateSet((eb) => ({
          transcript: eb.ref('excluded.transcript'),
          redaction: eb.ref('excluded.redaction'),
          created_at: eb.ref('excluded.created_at'),
        })),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  async redaction(jobId: string): Promise<unknown | undefined> {
    const row = await this.db.selectFrom('job_results').select('redaction').where('job_id', '=', jobId).executeTakeFirst();
    return row?.redaction ? JSON.parse(row.redaction) : undefined;
  }

  async result(jobId: string): Promise<unknown | undefined> {
    const row = await this.db.selectFrom('job_results').select('transcript').where('job_id', '=', jobId).executeTakeFirst();
    return row ? JSON.parse(row.transcript) : undefined;
  }

  /** Jobs whose retention has run out. */
  async expired(now: string, limit: number): Promise<JobRow[]> {
    return this.db.selectFrom('jobs').selectAll().where('delete_after', '<', now).limit(limit).execute();
  }

  async countByStatus(): Promise<Record<string, number>> {
    const rows = await this.db
      .selectFrom('jobs')
      .select((eb) => ['status', eb.fn.countAll<number | string>().as('n')])
      .groupBy('status')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  }

  /** Completed jobs and audio seconds per model. */
  async usageByModel(): Promise<{ model: string; jobs: number; audioSeconds: number; processingSeconds: number }[]> {
    const rows = await this.db
      .selectFrom('jobs')
      .select((eb) => [
        'model',
        eb.fn.countAll<number | string>().as('n'),
        eb.fn.sum<number | string>('audio_seconds').as('audio'),
        eb.fn.sum<number | string>('processing_seconds').as('processing'),
      ])
      .where('status', '=', 'completed')
      .where('model', 'is not', null)
      .groupBy('model')
      .execute();
    return rows.map((r) => ({
      model: r.model!,
      jobs: Number(r.n),
      audioSeconds: Number(r.audio ?? 0),
      processingSeconds: Number(r.processing ?? 0),
    }));
  }

  /** Jobs finished per day and status, with audio seconds. */
  async daily(days: number): Promise<{ day: string; status: string; jobs: number; audioSeconds: number }[]> {
    const since = new Date(Date.now() - days * 86400_000).toISOString();
    const rows = await this.db
      .selectFrom('jobs')
      .select((eb) => [
        sql<string>`substr(created_at, 1, 10)`.as('day'),
        'status',
        eb.fn.countAll<number | string>().as('n'),
        eb.fn.sum<number | string>('audio_seconds').as('audio'),
      ])
      .where('created_at', '>=', since)
      .groupBy(['day', 'status'])
      .execute();
    return rows.map((r) => ({ day: r.day, status: r.status, jobs: Number(r.n), audioSeconds: Number(r.audio ?? 0) }));
  }
}
