// Shared pieces of the notification tests: a database per dialect (opened directly, without the HTTP app),
// a local receiver whose answers each test scripts, and a logger that keeps its lines.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import pino, { type Logger } from 'pino';
import { NotificationOutbox, type NotificationOutboxOptions, TargetPolicy } from '../../src/jobs/notifications/index.js';
import { createSecretBox } from '../../src/security/secretBox.js';
import { type Database, openDatabase } from '../../src/store/database.js';

export { type Dialect, dialects, TEST_DATABASE_URL, type TestDatabase, testDatabase } from '../helpers/databases.js';
import { type Dialect, type TestDatabase, testDatabase } from '../helpers/databases.js';

export const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
export const BOX_KEY = 'notification-test-key';
export const box = createSecretBox(Buffer.from(BOX_KEY));
/**
 * The receivers here listen on 127.0.0.1, which the default policy refuses: these tests allow loopback
 * explicitly, as an operator would for a receiver on the same machine (the refusal is test/notifications/ssrf).
 */
export const LOOPBACK_ALLOWED = new TargetPolicy(['127.0.0.0/8']);
/** The same, as the service's setting (for tests that start a whole service). */
export const LOOPBACK_ALLOW_ENV = { SCRUBLINE_WEBHOOK_ALLOW: '127.0.0.0/8' };

/** Open (another connection pool onto) a test database. */
export function open(test: TestDatabase): Promise<Database> {
  return openDatabase({ dataDir: test.dataDir, databaseUrl: test.databaseUrl, databaseSchema: test.schema });
}

export interface Fixture {
  test: TestDatabase;
  database: Database;
  close(): Promise<void>;
}

export async function fixture(dialect: Dialect): Promise<Fixture> {
  const test = await testDatabase(dialect);
  const database = await open(test);
  await standInJobs(database);
  return {
    test,
    database,
    async close() {
      await database.close();
      await test.drop();
    },
  };
}

/**
 * A delivery belongs to a job (foreign key). These tests exercise the outbox alone, with made-up job ids: a
 * trigger makes a stand-in job row for each one as its first delivery is written.
 */
async function standInJobs(database: Database): Promise<void> {
  const at = '2026-01-01T00:00:00.000Z';
  const values = `(new.job_id, 'completed', 'not_requested', 0, 'audio', '{}', '{}', 0, '${at}', '${at}')`;
  const columns = '(id, status, redaction_status, priority, input_kind, record, params, attempts, created_at, updated_at)';
  if (database.dialect === 'sqlite') {
    await sql.raw(`create trigger deliveries_stand_in_job before insert on deliveries begin insert or ignore into jobs ${columns} values ${values}; end`).execute(database.db);
    return;
  }
  await sql.raw(`create function deliveries_stand_in_job() returns trigger language plpgsql as $$ begin insert into jobs ${columns} values ${values} on conflict do nothing; return new; end $$`).execute(database.db);
  await sql.raw('create trigger deliveries_stand_in_job before insert on deliveries for each row execute function deliveries_stand_in_job()').execute(database.db);
}

export interface Hit {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export type Answer = { status: number; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  url: string;
  hits: Hit[];
  /** Resolves when the receiver has had `n` requests. */
  waitForHits(n: number, ms?: number): Promise<void>;
  close(): Promise<void>;
}

/** A receiver on 127.0.0.1 answering the n-th request (0-based) as `answer` says (held while a promise is pending). */
export async function receiver(answer: (index: number, hit: Hit) => Answer | Promise<Answer>): Promise<Receiver> {
  const hits: Hit[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const hit: Hit = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      const index = hits.push(hit) - 1;
      for (const w of waiters.filter((w) => hits.length >= w.n)) w.resolve();
      hanging.add(res);
      void Promise.resolve(answer(index, hit)).then((a) => {
        if (a === 'hang' || res.destroyed) return;
        hanging.delete(res);
        res.writeHead(a.status, { 'content-type': 'text/plain', ...a.headers });
        res.end(`answer ${a.status}`);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/scrubline?tenant=acme`,
    hits,
    waitForHits(n, ms = 60_000) {
      if (hits.length >= n) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver had ${hits.length} of ${n} requests after ${ms} ms`)), ms);
        waiters.push({ n, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A url on which nothing listens (a port just released). */
export async function deadUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/down`;
}

export function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  return { logger: pino({ level: 'trace' }, { write: (line: string) => void lines.push(line) }), lines };
}

export interface Calls {
  delivered: [string, string][];
  failed: [string, string, string][];
}

/** An outbox with a short schedule and fast polling, loopback allowed, and its callbacks recorded. */
export function outbox(
  database: Database,
  options: Partial<NotificationOutboxOptions> = {},
): { outbox: NotificationOutbox; calls: Calls; lines: string[] } {
  const calls: Calls = { delivered: [], failed: [] };
  const { logger, lines } = capturingLogger();
  const ob = new NotificationOutbox({
    db: database.db,
    box,
    secret: SECRET,
    logger,
    schedule: [50, 100, 150],
    jitter: 0,
    pollMs: 20,
    timeoutMs: 2000,
    policy: LOOPBACK_ALLOWED,
    onDelivered: (jobId, id) => void calls.delivered.push([jobId, id]),
    onFailed: (jobId, id, reason) => void calls.failed.push([jobId, id, reason]),
    ...options,
  });
  return { outbox: ob, calls, lines };
}

/** Poll `check` until it holds (or fail after `ms`, a bound far above any expected wait on a busy machine). */
export async function until(check: () => boolean | Promise<boolean>, ms = 60_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A pause (kept for callers; to wait for something, poll its state with `until`). */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The "will retry" log lines of an outbox: when each failed attempt scheduled the next one. */
export function retriesScheduled(lines: string[]): number[] {
  return lines
    .map((line) => JSON.parse(line) as { msg?: string; nextAttemptAt?: string })
    .filter((entry) => entry.msg === 'notification attempt failed; will retry')
    .map((entry) => Date.parse(entry.nextAttemptAt!));
}

export function event(jobId: string) {
  return {
    eventId: `evt-${jobId}`,
    type: 'job',
    subType: 'completed',
    status: 'completed',
    jobId,
    message: 'Ünïcode ✓ body',
    createdAt: '2025-01-01T00:00:00.000Z',
    timestamp: '2025-01-01T00:00:00.000Z',
  };
}
