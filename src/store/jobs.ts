// Jobs and their results. The jobs table is also the durable queue: a worker claims a job by a conditional
// update that takes a lease; a job whose lease runs out (its worker died) is claimable again.
import { type Kysely, sql } from 'kysely';
import type { JobRow, Tables } from './tables.js';

export type JobStatus = 'queued' | 'processing' | 'completed' | 'failed' | 'cancelled';
export const TERMINAL: readonly JobStatus[] = ['completed', 'failed', 'cancelled'];

export interface JobListQuery {
  status?: JobStatus;
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

  async list(query: JobListQuery): Promise<{ total: number; jobs: JobRow[] }> {
    let q = this.db.selectFrom('jobs');
    if (query.status) q = q.where('status', '=', query.status);
    const total = await q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
    const jobs = await q.selectAll().orderBy('created_at', 'desc').orderBy('id').limit(query.limit).offset(query.offset).execute();
    return { total: Number(total.n), jobs };
  }

  /** Claim the next job: highest priority first, then oldest. Answers undefined when none is due. */
  async claimNext(workerId: string, leaseMs: number): Promise<JobRow | undefined> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const now = new Date().toISOString();
      const candidate = await this.db
        .selectFrom('jobs')
        .select('id')
        .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'processing'), eb('lease_until', '<', now)])]))
        .orderBy('priority', 'desc')
        .orderBy('created_at')
        .limit(1)
        .executeTakeFirst();
      if (!candidate) return undefined;
      const leaseUntil = new Date(Date.now() + leaseMs).toISOString();
      const claimed = await this.db
        .updateTable('jobs')
        .set((eb) => ({
          status: 'processing',
          worker_id: workerId,
          lease_until: leaseUntil,
          attempts: eb('attempts', '+', 1),
          started_at: now,
          updated_at: now,
          last_error: null,
        }))
        .where('id', '=', candidate.id)
        // The same condition again: of two workers racing for this job, one update matches.
        .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'processing'), eb('lease_until', '<', now)])]))
        .returningAll()
        .executeTakeFirst();
      if (claimed) return claimed;
    }
    return undefined;
  }

  /** Extend a lease; answers false when the job is no longer this worker's (cancelled, reclaimed). */
  async renewLease(id: string, workerId: string, leaseMs: number): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({ lease_until: new Date(Date.now() + leaseMs).toISOString() })
      .where('id', '=', id)
      .where('worker_id', '=', workerId)
      .where('status', '=', 'processing')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Move a job this worker holds to a terminal state; answers false when it no longer holds it. */
  async finish(
    id: string,
    workerId: string,
    outcome: {
      status: 'completed' | 'failed';
      error?: string;
      audioSeconds?: number;
      processingSeconds?: number;
      model?: string;
      deleteAfter?: string | null;
      redactionStatus?: string;
    },
  ): Promise<boolean> {
    const now = new Date().toISOString();
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
        lease_until: null,
        completed_at: now,
        updated_at: now,
      })
      .where('id', '=', id)
      .where('worker_id', '=', workerId)
      .where('status', '=', 'processing')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Give a job this worker holds back to the queue (a transient failure); false when it no longer holds it. */
  async requeue(id: string, workerId: string, error: string): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({ status: 'queued', last_error: error, worker_id: null, lease_until: null, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('worker_id', '=', workerId)
      .where('status', '=', 'processing')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Release jobs held by workers known to be dead (same host, process gone): claimable at once. */
  async releaseWorkers(workerIds: string[]): Promise<number> {
    if (workerIds.length === 0) return 0;
    const result = await this.db
      .updateTable('jobs')
      .set({ lease_until: new Date(0).toISOString() })
      .where('status', '=', 'processing')
      .where('worker_id', 'in', workerIds)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async processingWorkers(): Promise<string[]> {
    const rows = await this.db.selectFrom('jobs').select('worker_id').distinct().where('status', '=', 'processing').execute();
    return rows.map((r) => r.worker_id).filter((w): w is string => !!w);
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

  async delete(id: string): Promise<boolean> {
    await this.db.deleteFrom('job_results').where('job_id', '=', id).execute();
    const result = await this.db.deleteFrom('jobs').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async saveResult(jobId: string, transcript: unknown, redaction?: unknown): Promise<void> {
    const row = {
      job_id: jobId,
      transcript: JSON.stringify(transcript),
      redaction: redaction === undefined ? null : JSON.stringify(redaction),
      created_at: new Date().toISOString(),
    };
    await this.db
      .insertInto('job_results')
      .values(row)
      .onConflict((oc) => oc.column('job_id').doUpdateSet({ transcript: row.transcript, redaction: row.redaction, created_at: row.created_at }))
      .execute();
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
