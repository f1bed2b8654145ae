// Test harness: a real service (real store, real Fastify app) per test, on embedded SQLite or on the
// PostgreSQL server in a schema of its own. Requests go through app.inject unless a test needs a socket.
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/api/app.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/observability/logger.js';
import { createServices, type ServiceOverrides, type Services } from '../../src/services.js';
import { type Dialect, type TestDatabase, testDatabase } from './databases.js';
import { s3Mode, testS3 } from './s3.js';

export * from './databases.js';

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
  options: {
    env?: Record<string, string>;
    database?: TestDatabase;
    logLines?: string[];
    workers?: boolean;
    logLevel?: string;
    /** Parts replaced in the service (an injected recognizer). */
    overrides?: ServiceOverrides;
  } = {},
): Promise<TestService> {
  const database = options.database ?? (await testDatabase(dialect));
  // SCRUBLINE_BLOB_STORE=s3: the service keeps its files in a bucket of the loopback S3 server, not the data dir.
  const blobEnv = s3Mode() ? await blobStoreEnv(database) : {};
  const config = loadConfig({ ...database.env, ...blobEnv, SCRUBLINE_SECRET_KEY: 'test-secret-key', ...options.env });
  const lines = options.logLines;
  // The service's own logger (its censoring included), at the test's level (or LOG_LEVEL) when it sets one.
  const logger = createLogger(options.logLevel ?? options.env?.LOG_LEVEL ?? 'debug', lines ? { write: (line: string) => void lines.push(line) } : { write: () => {} });
  const services = await createServices(config, logger, options.overrides);
  const app = await buildApp(services, { logger });
  await app.ready();
  // As `scrubline serve` does: this process also runs jobs and sends notifications.
  if (options.workers !== false) {
    await services.worker.start();
    await services.heartbeat.start('serve');
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

/** One bucket per test database (services sharing a database share its bucket, as processes of one deployment do). */
const buckets = new WeakMap<TestDatabase, Promise<string>>();
async function blobStoreEnv(database: TestDatabase): Promise<Record<string, string>> {
  const s3 = await testS3();
  let bucket = buckets.get(database);
  if (!bucket) {
    bucket = s3.bucket('jobs');
    buckets.set(database, bucket);
  }
  return s3.env(await bucket);
}

/** Parse a JSON response body. */
export function json<T = any>(response: Pick<LightMyRequestResponse, 'body'>): T {
  return JSON.parse(response.body) as T;
}
