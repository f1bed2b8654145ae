// Test harness: a real service (real store, real Fastify app) per test, on embedded SQLite or on the
// PostgreSQL server in a schema of its own. Requests go through app.inject unless a test needs a socket.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { buildApp } from '../../src/api/app.js';
import { loadConfig } from '../../src/config.js';
import { createServices, type Services } from '../../src/services.js';

export type Dialect = 'sqlite' | 'postgres';

/** The PostgreSQL server used by the tests; CI sets SCRUBLINE_REQUIRE_POSTGRES=1 so a missing one fails. */
export const TEST_DATABASE_URL = process.env.SCRUBLINE_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.SCRUBLINE_TEST_REDIS_URL || 'redis://127.0.0.1:6379';

let pgProbe: Promise<boolean> | undefined;
export function postgresAvailable(): Promise<boolean> {
  pgProbe ??= (async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch {
      if (process.env.SCRUBLINE_REQUIRE_POSTGRES === '1') throw new Error(`PostgreSQL is required but unreachable at ${TEST_DATABASE_URL}`);
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return pgProbe;
}

/** The dialects this run covers: both, or SQLite alone when no PostgreSQL answers (and none is required). */
export async function dialects(): Promise<Dialect[]> {
  return (await postgresAvailable()) ? ['sqlite', 'postgres'] : ['sqlite'];
}

export interface TestDatabase {
  env: Record<string, string>;
  dataDir: string;
  drop(): Promise<void>;
}

/** A fresh, empty database: a temporary directory for SQLite, a schema of its own on PostgreSQL. */
export async function testDatabase(dialect: Dialect): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-test-'));
  if (dialect === 'sqlite') {
    return { env: { SCRUBLINE_DATA_DIR: dataDir }, dataDir, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  return {
    env: { SCRUBLINE_DATA_DIR: dataDir, DATABASE_URL: TEST_DATABASE_URL, SCRUBLINE_DB_SCHEMA: schema },
    dataDir,
    async drop() {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TestService {
  dialect: Dialect;
  services: Services;
  app: FastifyInstance;
  database: TestDatabase;
  /** Inject a request; JSON bodies are sent as JSON. */
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function startTestService(
  dialect: Dialect,
  options: { env?: Record<string, string>; database?: TestDatabase; logLines?: string[]; workers?: boolean } = {},
): Promise<TestService> {
  const database = options.database ?? (await testDatabase(dialect));
  const config = loadConfig({ ...database.env, SCRUBLINE_SECRET_KEY: 'test-secret-key', ...options.env });
  const lines = options.logLines;
  const logger = pino({ level: 'debug' }, lines ? { write: (line: string) => void lines.push(line) } : { write: () => {} });
  const services = await createServices(config, logger);
  const app = await buildApp(services, { logger });
  await app.ready();
  // As `scrubline serve` does: this process also runs jobs and sends notifications.
  if (options.workers !== false) {
    await services.worker.start();
    services.outbox.start();
  }
  return {
    dialect,
    services,
    app,
    database,
    request: (inject) => app.inject(inject),
    async close() {
      await app.close();
      await services.close();
      if (!options.database) await database.drop();
    },
  };
}

/** Parse a JSON response body. */
export function json<T = any>(response: LightMyRequestResponse): T {
  return JSON.parse(response.body) as T;
}
