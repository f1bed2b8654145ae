// Throughput of POST /system/cache/post-call with a realistic ~225 KB conversation event record, against a bare
// Fastify route taking the same body as the baseline, in one run. See bench/README.md.
//
//   npm run bench                         SQLite (embedded default)
//   npm run bench -- --postgres           SQLite, then PostgreSQL (or BENCH_POSTGRES=1)
//   BENCH_SECONDS=5 BENCH_CONNECTIONS=10 BENCH_LOG=info npm run bench
//
// Each server runs in a child process of its own (bench/server.ts); autocannon runs in this process.
import { fork, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Result } from 'autocannon';
import pg from 'pg';
import { realisticRecord } from './fixtures/realisticRecord.js';
import type { ChildMessage, ParentMessage } from './server.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const require = createRequire(import.meta.url);
const MB = 1e6;
const POST_CALL = '/system/cache/post-call';

// ---------------------------------------------------------------------------------------------- settings

function envNumber(name: string, fallback: number, { min = 0, integer = false } = {}): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
    throw new Error(`${name} must be ${integer ? 'an integer' : 'a number'} >= ${min}, got "${raw}"`);
  }
  return value;
}

const settings = {
  seconds: envNumber('BENCH_SECONDS', 10, { min: 1, integer: true }),
  warmupSeconds: envNumber('BENCH_WARMUP_SECONDS', 1, { min: 0, integer: true }),
  connections: envNumber('BENCH_CONNECTIONS', 10, { min: 1, integer: true }),
  // A request the server is still working on is not a failure: with 10 connections and a server that answers one
  // record a second, each waits about 10 s (autocannon's own default timeout).
  timeoutSeconds: envNumber('BENCH_TIMEOUT_SECONDS', 60, { min: 1, integer: true }),
  postgres: process.argv.includes('--postgres') || process.env.BENCH_POSTGRES === '1',
  databaseUrl: process.env.BENCH_DATABASE_URL || process.env.SCRUBLINE_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
  logLevel: process.env.BENCH_LOG || 'info',
  echo: process.env.BENCH_ECHO !== '0',
  replace: process.env.BENCH_REPLACE !== '0',
};
for (const arg of process.argv.slice(2)) {
  if (arg !== '--postgres') throw new Error(`unknown argument "${arg}" (only --postgres; the rest is set by BENCH_* variables)`);
}

// -------------------------------------------------------------------------------------------- the record

const record = realisticRecord();
const recordJson = JSON.stringify(record);
const recordBytes = Buffer.byteLength(recordJson);
const vendorA = record.vendorATranscript!;
const wordCount = (vendorA.utterances ?? []).reduce((n, u) => n + (u.events?.length ?? 0), 0);
/** The kinds the record asks to redact (processJob.request.types); the answer's policy must hold every one. */
const ASKED_KINDS = (record.processJob?.request?.types ?? []) as string[];
/** Card numbers and phone numbers the fixture placed in the call (entities category 3.2 and 2.1): never answered. */
const SENSITIVE = [...new Set((record.entities ?? []).filter((e) => (e.category === 3 && e.subCategory === 2) || (e.category === 2 && e.subCategory === 1)).map((e) => String(e.text)))];

// The same record with a marker for its eventId, split there once so each request gets its own eventId cheaply.
const MARK = '__bench_event_id__';
const [head, tail, ...rest] = JSON.stringify(realisticRecord({ eventId: MARK })).split(JSON.stringify(MARK));
if (tail === undefined || rest.length > 0) throw new Error('the eventId marker must occur exactly once in the record');
const headBuffer = Buffer.from(head);
const tailBuffer = Buffer.from(tail);
const bodyFor = (eventId: string) => Buffer.concat([headBuffer, Buffer.from(JSON.stringify(eventId)), tailBuffer]);
/** Bytes of one request body (the bench's eventIds, bench-<8 hex>-<8 digits>, all have the same length). */
const requestBytes = bodyFor('bench-00000000-00000000').length;

/** eventIds of one server's runs: new ones, or ones already stored (for the replace runs). */
class EventIds {
  private issued = 0;
  private cycle = 0;
  private readonly tag = crypto.randomBytes(4).toString('hex');
  private id = (n: number) => `bench-${this.tag}-${String(n).padStart(8, '0')}`;
  fresh = () => this.id(this.issued++);
  /** An eventId stored earlier; the last ones issued are left out, as they may have been cut off in flight. */
  stored = (margin: number) => this.id(this.cycle++ % Math.max(1, this.issued - margin));
  get count() {
    return this.issued;
  }
}

// ------------------------------------------------------------------------------------------ child servers

interface Server {
  child: ChildProcess;
  url: string;
  logLevel: string;
  ask(message: ParentMessage): Promise<ChildMessage>;
  stop(): Promise<void>;
}

const children = new Set<ChildProcess>();

async function startServer(target: 'service' | 'baseline', env: Record<string, string>): Promise<Server> {
  const child = fork(path.join(here, 'server.ts'), [], {
    cwd: root,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env, BENCH_TARGET: target, BENCH_LOG: settings.logLevel },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  const ready = await new Promise<Extract<ChildMessage, { type: 'ready' }>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${target} server did not start within 60 s`)), 60_000);
    child.once('exit', (code) => reject(new Error(`${target} server exited with ${code} before listening`)));
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve(message);
      } else if (message.type === 'error') {
        clearTimeout(timer);
        reject(new Error(`${target} server failed: ${message.message}`));
      }
    });
  });
  let queue = Promise.resolve<unknown>(undefined);
  const ask = (message: ParentMessage) => {
    const answer = queue.then(
      () =>
        new Promise<ChildMessage>((resolve, reject) => {
          const onMessage = (reply: ChildMessage) => {
            if (reply.type === 'ready') return;
            child.off('message', onMessage);
            if (reply.type === 'error') reject(new Error(`${target} server: ${reply.message}`));
            else resolve(reply);
          };
          child.on('message', onMessage);
          child.send(message);
        }),
    );
    queue = answer.catch(() => {});
    return answer;
  };
  return {
    child,
    url: ready.address,
    logLevel: ready.logLevel,
    ask,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.send({ type: 'stop' } satisfies ParentMessage);
      }),
  };
}

// ----------------------------------------------------------------------------------------------- running

interface Probe {
  status: number;
  body: string;
}

async function post(url: string, body: Buffer): Promise<Probe> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body.toString('utf8') });
  return { status: response.status, body: await response.text() };
}

class BenchFailure extends Error {}

function expectProbe(what: string, probe: Probe, status: number, check?: (json: any) => string | undefined): void {
  let problem = probe.status === status ? undefined : `answered ${probe.status}, expected ${status}`;
  if (!problem && check) {
    try {
      problem = check(JSON.parse(probe.body));
    } catch {
      problem = 'answered something that is not JSON';
    }
  }
  if (problem) throw new BenchFailure(`${what}: ${problem}\n--- response body (first 2000 chars) ---\n${probe.body.slice(0, 2000)}`);
}

/** Peak RSS of this (the client) process, sampled every 100 ms. */
const clientRss = {
  peak: 0,
  timer: setInterval(() => {
    const rss = process.memoryUsage.rss();
    if (rss > clientRss.peak) clientRss.peak = rss;
  }, 100),
  reset() {
    this.peak = process.memoryUsage.rss();
  },
};
clientRss.timer.unref();

async function load(url: string, seconds: number, nextBody: () => Buffer) {
  const latencies: number[] = [];
  const instance = autocannon({
    url,
    connections: settings.connections,
    duration: seconds,
    timeout: settings.timeoutSeconds,
    headers: { 'content-type': 'application/json' },
    requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: nextBody() }) }],
  });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
  });
  const result = await instance;
  return { result, latencies: latencies.sort((a, b) => a - b) };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const round = (value: number, digits = 2) => Number(value.toFixed(digits));

interface RunSpec {
  name: string;
  target: 'baseline' | 'service';
  store?: 'sqlite' | 'postgres';
  mode: 'new' | 'replace' | 'small-json' | 'echo';
  route: string;
  expectStatus: number;
  nextEventId: () => string;
}

interface RunResult {
  name: string;
  target: string;
  store: string | null;
  mode: string;
  route: string;
  logging: string;
  requestBodyBytes: number;
  responseBodyBytes: number;
  requests: { total: number; perSecondMean: number; perSecondFromTotal: number; sent: number };
  latencyMs: { p50: number; p90: number; p99: number; mean: number; max: number; autocannon: Record<string, number> };
  throughputMBps: { received: number; sent: number };
  statusCodes: Record<string, number>;
  non2xx: number;
  errors: number;
  timeouts: number;
  serverRss: { peakMB: number; afterMB: number; lifetimeMaxMB: number; samples: number };
  clientPeakRssMB: number;
  recordsStored?: number | null;
  problems: string[];
}

async function measure(server: Server, spec: RunSpec, probeBody: Probe): Promise<RunResult> {
  const url = `${server.url}${spec.route}`;
  const nextBody = () => bodyFor(spec.nextEventId());
  process.stdout.write(`  ${spec.name}: warm-up ${settings.warmupSeconds} s, run ${settings.seconds} s ... `);
  if (settings.warmupSeconds > 0) {
    await load(url, settings.warmupSeconds, nextBody);
    // The warm-up's last requests are still being worked on when autocannon stops: one more request, awaited,
    // queues behind them, so the measured run does not start behind a backlog (a slow server answered nothing
    // in a 5 s run otherwise).
    await post(url, nextBody());
  }
  await server.ask({ type: 'reset' });
  clientRss.reset();
  const { result, latencies } = await load(url, settings.seconds, nextBody);
  const sample = (await server.ask({ type: 'sample' })) as Extract<ChildMessage, { type: 'sample' }>;
  const problems = checkResult(spec, result);
  const total = result.requests.total ?? result['2xx'];
  const out: RunResult = {
    name: spec.name,
    target: spec.target,
    store: spec.store ?? null,
    mode: spec.mode,
    route: `POST ${spec.route}`,
    logging: server.logLevel,
    requestBodyBytes: requestBytes,
    responseBodyBytes: Buffer.byteLength(probeBody.body),
    requests: {
      total,
      perSecondMean: result.requests.mean,
      perSecondFromTotal: round(total / result.duration, 1),
      sent: result.requests.sent,
    },
    latencyMs: {
      p50: round(percentile(latencies, 50)),
      p90: round(percentile(latencies, 90)),
      p99: round(percentile(latencies, 99)),
      mean: round(latencies.reduce((s, v) => s + v, 0) / Math.max(1, latencies.length)),
      max: round(latencies[latencies.length - 1] ?? NaN),
      autocannon: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, mean: result.latency.mean, max: result.latency.max },
    },
    throughputMBps: {
      received: round(result.throughput.mean / MB),
      sent: round((total * requestBytes) / result.duration / MB),
    },
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count])),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    serverRss: {
      peakMB: round(sample.peakRss / MB, 1),
      afterMB: round(sample.rss / MB, 1),
      lifetimeMaxMB: round(sample.maxRssLifetime / MB, 1),
      samples: sample.samples,
    },
    clientPeakRssMB: round(clientRss.peak / MB, 1),
    problems,
  };
  console.log(`${out.requests.perSecondMean} req/s, p99 ${out.latencyMs.p99} ms${problems.length ? `  !! ${problems.join('; ')}` : ''}`);
  return out;
}

function checkResult(spec: RunSpec, result: Result): string[] {
  const problems: string[] = [];
  if (result['2xx'] === 0) problems.push('no 2xx response at all');
  if (result.non2xx > 0) problems.push(`${result.non2xx} non-2xx responses (${JSON.stringify(result.statusCodeStats)})`);
  if (result.errors > 0) problems.push(`${result.errors} connection errors`);
  if (result.timeouts > 0) problems.push(`${result.timeouts} timeouts`);
  const unexpected = Object.entries(result.statusCodeStats).filter(([code]) => Number(code) !== spec.expectStatus);
  if (unexpected.length > 0 && result.non2xx === 0) {
    problems.push(`expected only ${spec.expectStatus}, got ${JSON.stringify(result.statusCodeStats)}`);
  }
  return problems;
}

// ------------------------------------------------------------------------------------------------ groups

interface Store {
  env: Record<string, string>;
  drop(): Promise<void>;
}

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-bench-'));
}

async function freshStore(kind: 'sqlite' | 'postgres'): Promise<Store> {
  const dataDir = tempDir();
  const removeDir = async () => fs.rmSync(dataDir, { recursive: true, force: true });
  if (kind === 'sqlite') return { env: { SCRUBLINE_DATA_DIR: dataDir }, drop: removeDir };
  // A schema of its own, as the test harness does (test/helpers/harness.ts testDatabase): the service makes it
  // (SCRUBLINE_DB_SCHEMA, migration tables included) and it is dropped afterwards.
  const schema = `bench_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: settings.databaseUrl, connectionTimeoutMillis: 5000 });
  try {
    await admin.connect();
    await admin.query('select 1');
  } catch (error) {
    await removeDir();
    throw new BenchFailure(`--postgres: PostgreSQL unreachable at ${settings.databaseUrl}: ${(error as Error).message}`);
  } finally {
    await admin.end().catch(() => {});
  }
  return {
    env: { SCRUBLINE_DATA_DIR: dataDir, DATABASE_URL: settings.databaseUrl, SCRUBLINE_DB_SCHEMA: schema },
    async drop() {
      const client = new pg.Client({ connectionString: settings.databaseUrl });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
      await removeDir();
    },
  };
}

const cleanups = new Set<() => Promise<void>>();

async function baselineGroup(): Promise<RunResult[]> {
  const server = await startServer('baseline', {});
  cleanups.add(server.stop);
  try {
    const ids = new EventIds();
    const results: RunResult[] = [];
    const id = ids.fresh();
    const probe = await post(`${server.url}${POST_CALL}`, bodyFor(id));
    expectProbe('baseline probe', probe, 201, (json) => (json.eventId === id ? undefined : 'eventId not echoed'));
    results.push(
      await measure(server, { name: 'baseline', target: 'baseline', mode: 'small-json', route: POST_CALL, expectStatus: 201, nextEventId: ids.fresh }, probe),
    );
    if (settings.echo) {
      const echo = await post(`${server.url}/echo`, bodyFor(ids.fresh()));
      expectProbe('baseline echo probe', echo, 201, (json) => (json.vendorATranscript?.utterances?.length ? undefined : 'body not echoed'));
      results.push(
        await measure(server, { name: 'baseline-echo', target: 'baseline', mode: 'echo', route: '/echo', expectStatus: 201, nextEventId: ids.fresh }, echo),
      );
    }
    return results;
  } finally {
    await server.stop();
    cleanups.delete(server.stop);
  }
}

async function serviceGroup(kind: 'sqlite' | 'postgres'): Promise<RunResult[]> {
  const store = await freshStore(kind);
  cleanups.add(store.drop);
  let server: Server | undefined;
  try {
    server = await startServer('service', store.env);
    cleanups.add(server.stop);
    const ids = new EventIds();
    const url = `${server.url}${POST_CALL}`;
    const results: RunResult[] = [];

    // One record by hand first: created (201), echoed with its eventId, credentials masked; again: replaced (200).
    const id = ids.fresh();
    const created = await post(url, bodyFor(id));
    expectProbe(`${kind} probe (new record)`, created, 201, (json) => {
      if (json.eventId !== id) return `eventId ${json.eventId} instead of ${id}`;
      // Redacted (the record's processJob.request.types), then processed (analytics from the word times).
      if (json.status !== 'processed') return `status ${json.status} instead of processed`;
      const kinds: string[] = json.redaction?.policy?.kinds ?? [];
      if (!ASKED_KINDS.every((kind) => kinds.includes(kind))) return `redaction.policy.kinds ${JSON.stringify(kinds)} lacks one of ${ASKED_KINDS.join(', ')}`;
      const leaked = SENSITIVE.find((value) => JSON.stringify(json).includes(value));
      if (leaked !== undefined) return `the answer still holds "${leaked}" (a value the record asks to redact)`;
      if (typeof json.analytics?.talk_time_agent !== 'number') return 'no analytics (talk_time_agent) in the answer';
      if (!String(json.campaign?.appSecret ?? '').startsWith('****')) return 'campaign.appSecret is not masked';
      if (json.vendorATranscript?.utterances?.length !== vendorA.utterances?.length) return 'the transcript did not come back whole';
      return undefined;
    });
    const replaced = await post(url, bodyFor(id));
    expectProbe(`${kind} probe (same eventId again)`, replaced, 200);

    const before = (await server.ask({ type: 'count' })) as Extract<ChildMessage, { type: 'count' }>;
    const fresh = await measure(server, { name: `${kind} new`, target: 'service', store: kind, mode: 'new', route: POST_CALL, expectStatus: 201, nextEventId: ids.fresh }, created);
    const after = (await server.ask({ type: 'count' })) as Extract<ChildMessage, { type: 'count' }>;
    // Every 2xx of the measured run must have stored a record (warm-up and cut-off requests may add a few).
    fresh.recordsStored = after.stored;
    const added = (after.stored ?? 0) - (before.stored ?? 0);
    if (added < fresh.requests.total) fresh.problems.push(`${fresh.requests.total} records answered 201 but only ${added} stored`);
    results.push(fresh);

    if (settings.replace) {
      const margin = 4 * settings.connections;
      const replace = await measure(
        server,
        { name: `${kind} replace`, target: 'service', store: kind, mode: 'replace', route: POST_CALL, expectStatus: 200, nextEventId: () => ids.stored(margin) },
        replaced,
      );
      replace.recordsStored = ((await server.ask({ type: 'count' })) as Extract<ChildMessage, { type: 'count' }>).stored;
      results.push(replace);
    }
    return results;
  } finally {
    if (server) {
      await server.stop();
      cleanups.delete(server.stop);
    }
    await store.drop();
    cleanups.delete(store.drop);
  }
}

// ------------------------------------------------------------------------------------------------ output

function version(pkg: string): string {
  try {
    return (require(`${pkg}/package.json`) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

function table(rows: RunResult[]): string {
  const header = ['run', 'req/s', 'p50 ms', 'p99 ms', 'sent MB/s', 'recv MB/s', 'resp KB', '2xx', 'non-2xx', 'errors', 'srv peak RSS MB'];
  const lines = rows.map((r) => [
    r.name,
    String(r.requests.perSecondMean),
    String(r.latencyMs.p50),
    String(r.latencyMs.p99),
    String(r.throughputMBps.sent),
    String(r.throughputMBps.received),
    String(round(r.responseBodyBytes / 1000, 1)),
    String(r.requests.total),
    String(r.non2xx),
    String(r.errors + r.timeouts),
    String(r.serverRss.peakMB),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(fmt)].join('\n');
}

// -------------------------------------------------------------------------------------------------- main

async function main(): Promise<number> {
  const cpus = os.cpus();
  const environment = {
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryGB: round(os.totalmem() / 1e9, 1),
    fastify: version('fastify'),
    autocannon: version('autocannon'),
  };
  const topology =
    'server in a child process (node --import tsx bench/server.ts), autocannon in this process over loopback TCP; ' +
    `client, server${settings.postgres ? ' and PostgreSQL' : ''} share the machine's ${environment.cpus} CPUs`;
  console.log('POST /system/cache/post-call benchmark');
  console.log(`  record      ${recordBytes} bytes of JSON (${round(recordBytes / 1024, 1)} KiB): ${vendorA.utterances?.length} utterances, ${wordCount} word events, ${vendorA.audiosecs} s call (bench/fixtures/realisticRecord.ts, fixed seed)`);
  console.log(`  load        autocannon ${environment.autocannon}, ${settings.connections} connections, pipelining 1, ${settings.seconds} s measured after ${settings.warmupSeconds} s warm-up per run; a new eventId per request ("new"), or cycling over stored ones ("replace")`);
  console.log(`  topology    ${topology}`);
  console.log(`  service     the real app (loadConfig + startServer: createServices + buildApp), no API keys (loopback), logging: ${settings.logLevel === 'off' ? 'off' : `pino level ${settings.logLevel} via the production logger, output discarded`}`);
  console.log(`  baseline    bare Fastify ${environment.fastify} (logger off, default JSON parser), same body, answers {eventId,status}${settings.echo ? '; baseline-echo answers the parsed body back, as the service does' : ''}`);
  console.log(`  machine     node ${environment.node}, ${environment.platform}, ${environment.cpus} x ${environment.cpuModel}, ${environment.memoryGB} GB`);
  console.log('');

  const started = Date.now();
  const results: RunResult[] = [];
  let fatal: string | undefined;
  try {
    results.push(...(await baselineGroup()));
    results.push(...(await serviceGroup('sqlite')));
    if (settings.postgres) results.push(...(await serviceGroup('postgres')));
  } catch (error) {
    fatal = error instanceof Error ? (error instanceof BenchFailure ? error.message : error.stack ?? error.message) : String(error);
  }

  const baseline = results.find((r) => r.name === 'baseline');
  const ratios = baseline
    ? results
        .filter((r) => r.target === 'service')
        .map((r) => ({
          run: r.name,
          reqPerSecond: round(r.requests.perSecondMean / baseline.requests.perSecondMean, 3),
          p99: round(r.latencyMs.p99 / baseline.latencyMs.p99, 2),
        }))
    : [];

  console.log('');
  if (results.length > 0) console.log(table(results));
  if (ratios.length > 0) {
    console.log('');
    console.log('service / baseline');
    for (const r of ratios) console.log(`  ${r.run.padEnd(18)} req/s x${r.reqPerSecond}   p99 x${r.p99}`);
  }
  const problems = results.flatMap((r) => r.problems.map((p) => `${r.name}: ${p}`));
  if (fatal) problems.unshift(fatal);

  const report = {
    benchmark: 'POST /system/cache/post-call',
    date: new Date().toISOString(),
    wallSeconds: round((Date.now() - started) / 1000, 1),
    settings: { ...settings, databaseUrl: settings.postgres ? settings.databaseUrl : undefined },
    environment,
    topology,
    logging: settings.logLevel === 'off' ? 'off' : `pino level ${settings.logLevel}, production logger, output discarded (baseline: logger off)`,
    record: { bytes: recordBytes, utterances: vendorA.utterances?.length, wordEvents: wordCount, audioSeconds: vendorA.audiosecs },
    results,
    ratiosToBaseline: ratios,
    ok: problems.length === 0,
    problems,
  };
  const dir = path.join(here, 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `post-call-${report.date.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log('');
  console.log(`results: ${path.relative(process.cwd(), file)}`);
  if (problems.length > 0) {
    console.error('');
    console.error('BENCHMARK FAILED:');
    for (const problem of problems) console.error(`  - ${problem}`);
    return 1;
  }
  return 0;
}

async function cleanUp(): Promise<void> {
  for (const cleanup of [...cleanups].reverse()) await cleanup().catch(() => {});
  for (const child of children) child.kill('SIGKILL');
}

process.once('SIGINT', () => {
  console.error('\ninterrupted: stopping servers and removing temporary stores');
  void cleanUp().finally(() => process.exit(130));
});

main().then(
  async (code) => {
    await cleanUp();
    process.exit(code);
  },
  async (error: unknown) => {
    console.error(error);
    await cleanUp();
    process.exit(1);
  },
);
