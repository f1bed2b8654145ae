// Live streams counted across processes: a row per open stream, written by the process that admitted it and
// refreshed by it every few seconds (database clock, as heartbeats are). Admission counts and inserts in one
// transaction, serialized across processes (PostgreSQL: an advisory lock; SQLite: one writer at a time), so
// two processes never both take the last place.
import { type Kysely, sql } from 'kysely';
import type { Dialect } from './dialect.js';
import type { LiveStreamRow, Tables } from './tables.js';
import { databaseTime } from './workerProcesses.js';

/** Lock key of stream admission (pg_advisory_xact_lock). */
const ADMISSION_LOCK = 19_019;

export interface Admission {
  admitted: boolean;
  /** Streams open in the cluster (before this one), and in the admitting process. */
  streams: number;
  processStreams: number;
  capacity: number;
}

export class LiveStreamStore {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Admit a stream when the cluster and this process have room. The cluster's capacity is `total` when set,
   * else the sum of the capacities of the processes with fresh rows (this one included).
   */
  async admit(row: { id: string; process_id: string; process_capacity: number; protocol: string }, staleSeconds: number, total?: number): Promise<Admission> {
    return this.db.transaction().execute(async (trx) => {
      if (this.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${ADMISSION_LOCK})`.execute(trx);
      const live = await trx.selectFrom('live_streams').select(['process_id', 'process_capacity']).where('heartbeat_at', '>=', databaseTime(this.dialect, staleSeconds)).execute();
      const processStreams = live.filter((r) => r.process_id === row.process_id).length;
      const capacities = new Map<string, number>(live.map((r) => [r.process_id, r.process_capacity]));
      capacities.set(row.process_id, row.process_capacity);
      const capacity = total ?? [...capacities.values()].reduce((a, b) => a + b, 0);
      const admitted = live.length < capacity && processStreams < row.process_capacity;
      if (admitted) {
        const now = databaseTime(this.dialect);
        await trx.insertInto('live_streams').values({ ...row, started_at: now, heartbeat_at: now }).execute();
      }
      return { admitted, streams: live.length, processStreams, capacity };
    });
  }

  /** The process's streams are alive (every few seconds). */
  async refresh(processId: string): Promise<void> {
    await this.db.updateTable('live_streams').set({ heartbeat_at: databaseTime(this.dialect) }).where('process_id', '=', processId).execute();
  }

  async release(id: string): Promise<void> {
    await this.db.deleteFrom('live_streams').where('id', '=', id).execute();
  }

  /** Streams whose row is fresh. */
  async live(staleSeconds: number): Promise<LiveStreamRow[]> {
    return this.db.selectFrom('live_streams').selectAll().where('heartbeat_at', '>=', databaseTime(this.dialect, staleSeconds)).orderBy('started_at').execute();
  }

  /** Rows of processes that died, long after they stopped counting. */
  async forgetOlderThan(seconds: number): Promise<void> {
    await this.db.deleteFrom('live_streams').where('heartbeat_at', '<', databaseTime(this.dialect, seconds)).execute();
  }
}
