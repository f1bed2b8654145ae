// The heartbeat rows of the processes that run jobs. Times are the database's, never a machine's own clock, so
// that a process on a host whose clock is off is neither taken for dead nor kept alive by it.
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Dialect } from './dialect.js';
import type { Tables, WorkerProcessRow } from './tables.js';

export type WorkerProcessReport = Omit<WorkerProcessRow, 'heartbeat_at' | 'started_at'>;

/** The database's time `secondsAgo` seconds ago, as ISO 8601 text with milliseconds and Z (as stored). */
export function databaseTime(dialect: Dialect, secondsAgo = 0): RawBuilder<string> {
  const seconds = Math.max(0, Math.floor(secondsAgo));
  return dialect === 'postgres'
    ? sql<string>`to_char((clock_timestamp() - make_interval(secs => ${seconds})) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${`-${seconds} seconds`})`;
}

export class WorkerProcessStore {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly dialect: Dialect,
  ) {}

  /** Write this process's figures (made on its first beat); heartbeat_at is the database's now. */
  async beat(report: WorkerProcessReport): Promise<void> {
    const now = databaseTime(this.dialect);
    const figures = {
      role: report.role,
      host: report.host,
      pid: report.pid,
      job_slots: report.job_slots,
      jobs_running: report.jobs_running,
      max_streams: report.max_streams,
      decoders: report.decoders,
      decoders_busy: report.decoders_busy,
      decoders_waiting: report.decoders_waiting,
    };
    await this.db
      .insertInto('worker_processes')
      .values({ id: report.id, ...figures, started_at: now, heartbeat_at: now })
      .onConflict((oc) => oc.column('id').doUpdateSet({ ...figures, heartbeat_at: now }))
      .execute();
  }

  /** Processes whose last heartbeat is at most `staleSeconds` old by the database's clock. */
  async live(staleSeconds: number): Promise<WorkerProcessRow[]> {
    return this.db
      .selectFrom('worker_processes')
      .selectAll()
      .where('heartbeat_at', '>=', databaseTime(this.dialect, staleSeconds))
      .orderBy('started_at')
      .orderBy('id')
      .execute();
  }

  /** A process stopping cleanly takes its row with it. */
  async remove(id: string): Promise<void> {
    await this.db.deleteFrom('worker_processes').where('id', '=', id).execute();
  }

  /** Rows of processes that died without a word, long after they stopped counting. */
  async forgetOlderThan(seconds: number): Promise<number> {
    const result = await this.db.deleteFrom('worker_processes').where('heartbeat_at', '<', databaseTime(this.dialect, seconds)).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
