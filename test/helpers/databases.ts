// Throw-away databases for tests, without the rest of the service: a temporary directory for SQLite, a schema
// of its own on the PostgreSQL server. CI sets SCRUBLINE_REQUIRE_POSTGRES=1 so a missing server fails.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, sql, SqliteDialect } from 'kysely';
import pg from 'pg';
import { migrationProvider } from '../../src/store/migrations.js';

export type Dialect = 'sqlite' | 'postgres';

export const TEST_DATABASE_URL = process.env.SCRUBLINE_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.SCRUBLINE_TEST_REDIS_URL || 'redis://127.0.0.1:6379';

let pgProbe: Promise<boolean> | undefined;
export function postgresAvailable(): Promise<boolean> {
  pgProbe ??= (async () => {
    // Where PostgreSQL is required, a server slow to answer on a busy machine is waited for (up to two minutes),
    // not taken for an absent one; where it is optional, one short try decides.
    const required = process.env.SCRUBLINE_REQUIRE_POSTGRES === '1';
    const deadline = Date.now() + (required ? 120_000 : 0);
    for (;;) {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: required ? 20_000 : 2000 });
      try {
        await client.connect();
        await client.query('select 1');
        return true;
      } catch {
        if (Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 1000));
          continue;
        }
        if (required) throw new Error(`PostgreSQL is required but unreachable at ${TEST_DATABASE_URL}`);
        return false;
      } finally {
        await client.end().catch(() => {});
      }
    }
  })();
  return pgProbe;
}

/** The dialects this run covers: both, or SQLite alone when no PostgreSQL answers (and none is required). */
export async function dialects(): Promise<Dialect[]> {
  return (await postgresAvailable()) ? ['sqlite', 'postgres'] : ['sqlite'];
}

export interface TestDatabase {
  dialect: Dialect;
  /** The service's environment for this database. */
  env: Record<string, string>;
  dataDir: string;
  databaseUrl?: string;
  schema?: string;
  drop(): Promise<void>;
}

/** A fresh, empty database. */
export async function testDatabase(dialect: Dialect): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-test-'));
  if (dialect === 'sqlite') {
    return { dialect, env: { SCRUBLINE_DATA_DIR: dataDir }, dataDir, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  return {
    dialect,
    env: { SCRUBLINE_DATA_DIR: dataDir, DATABASE_URL: TEST_DATABASE_URL, SCRUBLINE_DB_SCHEMA: schema },
    dataDir,
    databaseUrl: TEST_DATABASE_URL,
    schema,
    async drop() {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A bare Kysely over a fresh test database and a Migrator of the service's migrations on it, for tests that migrate
 * step by step (to a named migration, rows written as they were then, then to the latest). `close` drops it all.
 */
export async function migratingDatabase(dialect: Dialect): Promise<{ db: Kysely<any>; migrator: Migrator; close(): Promise<void> }> {
  const t = await testDatabase(dialect);
  const db =
    dialect === 'sqlite'
      ? new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(path.join(t.dataDir, 'm.sqlite')) }) })
      : new Kysely<any>({
          dialect: new PostgresDialect({
            pool: new pg.Pool({ connectionString: t.databaseUrl, max: 1 }),
            onCreateConnection: async (c) => void (await c.executeQuery(sql`set search_path to ${sql.id(t.schema!)}`.compile(db))),
          }),
        });
  if (dialect === 'postgres') await sql`create schema if not exists ${sql.id(t.schema!)}`.execute(db);
  const migrator = new Migrator({ db, provider: migrationProvider(dialect), ...(dialect === 'postgres' && { migrationTableSchema: t.schema }) });
  return {
    db,
    migrator,
    async close() {
      await db.destroy();
      await t.drop();
    },
  };
}
