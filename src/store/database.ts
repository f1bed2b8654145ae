// One SQL code path over two dialects: embedded SQLite (default, a file in the data directory) or PostgreSQL
// (DATABASE_URL). Opening a database applies pending migrations.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { migrationProvider } from './migrations.js';
import type { Dialect } from './dialect.js';
import type { Tables } from './tables.js';

export interface Database {
  db: Kysely<Tables>;
  dialect: Dialect;
  /** Where the data lives, for status pages (a file path or a URL with its password removed). */
  location: string;
  migrate(): Promise<string[]>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  dataDir: string;
  databaseUrl?: string;
  /** PostgreSQL schema for the tables (default public); validated as an identifier by the configuration. */
  databaseSchema?: string;
}

function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '****';
    return parsed.toString();
  } catch {
    return 'postgres (unparsable URL)';
  }
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  let db: Kysely<Tables>;
  let dialect: Dialect;
  let location: string;
  if (options.databaseUrl) {
    dialect = 'postgres';
    location = redactUrl(options.databaseUrl);
    const schema = options.databaseSchema ?? 'public';
    // Every connection works in the configured schema, which is made first when missing.
    const setup = new pg.Client({ connectionString: options.databaseUrl });
    await setup.connect();
    try {
      await setup.query(`create schema if not exists "${schema}"`);
    } catch (error) {
      // Two processes starting at once may race to make it; the loser finds it made.
      if (!['23505', '42P06'].includes((error as { code?: string }).code ?? '')) throw error;
    } finally {
      await setup.end();
    }
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // A pool error on an idle client must not crash the process; the next query reports it.
    pool.on('error', () => {});
    // Set on every new connection, so it wins over any search_path given in the URL: the tables and
    // Kysely's record of migrations must live in the same schema.
    const setSchema = CompiledQuery.raw(`set search_path to "${schema}"`);
    db = new Kysely<Tables>({
      dialect: new PostgresDialect({ pool, onCreateConnection: async (connection) => void (await connection.executeQuery(setSchema)) }),
    });
  } else {
    dialect = 'sqlite';
    fs.mkdirSync(options.dataDir, { recursive: true });
    location = path.join(options.dataDir, 'scrubline.sqlite');
    const sqlite = new SQLite(location);
    // WAL lets the CLI and the server use the same file at once.
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('synchronous = NORMAL');
    // Deleted rows (a job's dropped input, a revoked key) are overwritten with zeros, not left readable in
    // free pages of the file.
    sqlite.pragma('secure_delete = ON');
    // SQLite checks foreign keys (a job's results, deliveries and events) only when asked, per connection.
    sqlite.pragma('foreign_keys = ON');
    db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: sqlite }) });
  }
  const database: Database = {
    db,
    dialect,
    location,
    async migrate() {
      // Naming the schema of the migration tables keeps Kysely from mistaking another schema's for ours.
      const migrator = new Migrator({
        db,
        provider: migrationProvider(dialect),
        ...(dialect === 'postgres' && { migrationTableSchema: options.databaseSchema ?? 'public' }),
      });
      // Kysely's introspection reads every schema of the database: one dropped or altered meanwhile by someone else
      // fails that read, not our migration; it is read again.
      for (let attempt = 1; ; attempt++) {
        const { error, results } = await migrator.migrateToLatest();
        if (!error) return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
        if (attempt >= 5 || !changedElsewhere(error, results, options.databaseSchema ?? 'public')) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    },
    close: () => db.destroy(),
  };
  await database.migrate();
  return database;
}

/** Catalog errors a concurrent DDL elsewhere gives a read of every schema: schema, table or column gone, relation OID gone. */
const CATALOG_RACE = new Set(['3F000', '42P01', '42703', 'XX000']);

/**
 * The catalog changed under Kysely's introspection, before any migration ran (a migration's own failure comes with
 * its results): another schema was dropped or altered meanwhile. An error naming our schema is never retried.
 */
function changedElsewhere(error: unknown, results: readonly unknown[] | undefined, ours: string): boolean {
  const { code, message } = error as { code?: string; message?: string };
  if (results !== undefined || !code || !CATALOG_RACE.has(code)) return false;
  return typeof message === 'string' && !message.includes(`"${ours}"`);
}
