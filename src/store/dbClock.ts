// Times taken from the database's clock rather than this machine's: leases are compared by every process that
// shares the database, so they must all read one clock. The text has the form Date.toISOString() gives
// (2026-01-02T03:04:05.678Z), so it compares as text with the times already stored.
import { type Kysely, PostgresAdapter, type RawBuilder, sql } from 'kysely';

export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The database's time now, plus `offsetMs` (which may be negative), as ISO 8601 text in UTC. */
export function dbTime(db: Kysely<any>, offsetMs = 0): RawBuilder<string> {
  const ms = Math.round(offsetMs);
  if (isPostgres(db)) {
    // clock_timestamp(), not now(): now() stands still for a whole transaction.
    return sql<string>`to_char((clock_timestamp() + (${ms}::bigint * interval '1 millisecond')) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  }
  // SQLite's modifiers take seconds with a fraction; %f is seconds with milliseconds.
  return sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${`${ms >= 0 ? '+' : ''}${(ms / 1000).toFixed(3)} seconds`})`;
}

/** The database's time now, read (for tests and for comparing a row's lease with it). */
export async function readDbTime(db: Kysely<any>, offsetMs = 0): Promise<string> {
  const { rows } = await sql<{ now: string }>`select ${dbTime(db, offsetMs)} as now`.execute(db);
  return rows[0].now;
}
