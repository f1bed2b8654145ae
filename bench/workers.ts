// Job throughput scaled out: 1, 2 and 4 `scrubline worker` processes (behind one `scrubline serve` with
// SCRUBLINE_WORKERS=0, as README "Scaling out" runs them) against one all-in-one `scrubline serve` with its
// built-in workers, on PostgreSQL, with the same short recording, in the same run. N jobs are submitted through
// the API; the figure is the wall time from the first submit to the last job seen completed.
//
//   npm run bench:workers                      (node --import tsx bench/workers.ts)
//   BENCH_JOBS=32 BENCH_PROCESSES=1,2,4,8 npm run bench:workers
// Results: printed, and written to bench/results/workers-<time>.json (not tracked).
import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { devDataDir } from '../test/helpers/devData.js';
import { multipart } from '../test/helpers/multipart.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const JOBS = Math.max(1, Number(process.env.BENCH_JOBS ?? 16));
const PROCESSES = (process.env.BENCH_PROCESSES ?? '1,2,4').split(',').map(Number).filter((n) => n > 0);
/** Job concurrency of each process (SCRUBLINE_WORKERS); unset: the service's default (one per core). */
const CONCURRENCY = process.env.BENCH_WORKER_CONCURRENCY;
const DATABASE_URL = process.env.BENCH_DATABASE_URL || process.env.SCRUBLINE_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const AUDIO = path.join(devDataDir(), process.env.BENCH_AUDIO ?? 'audio/ljspeech/LJ001-0002.flac');
/** Unmeasured jobs first, so that every process has loaded its model before the clock starts (best effort). */
const WARMUP = Math.max(0, Number(process.env.BENCH_WARMUP_JOBS ?? 4));
/** Uploads in flight at once while submitting. */
const SUBMITTERS = 4;
const CLI = ['--import', 'tsx', path.join(ROOT, 'src', 'cli', 'bin.ts')];

interface Proc {
  name: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

interface Row {
  setup: string;
  workerProcesses: number;
  jobs: number;
  wallSeconds: number;
  jobsPerSecond: number;
  completed: number;
  failed: number;
  /** Jobs each worker identity ran (measured batch), as the database records them. */
  byWorker: number[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function start(name: string, command: 'serve' | 'worker', env: Record<string, string>): Proc {
  const child = spawn(process.execPath, [...CLI, command], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  // Only the start of the output is kept (enough to see the ready line, or why a process died).
  let output = '';
  const keep = (chunk: Buffer) => {
    if (output.length < 200_000) output += chunk.toString();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { name, child, output: () => output, exited };
}

async function waitFor(proc: Proc, ready: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (!(await ready())) {
    if (proc.child.exitCode !== null) throw new Error(`${proc.name} exited before ${what}:\n${proc.output().slice(-4000)}`);
    if (Date.now() > deadline) throw new Error(`${proc.name}: no ${what} after 180 s:\n${proc.output().slice(-4000)}`);
    await sleep(100);
  }
}

async function stop(procs: Proc[]): Promise<void> {
  for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGTERM');
  await Promise.all(procs.map((p) => Promise.race([p.exited, sleep(30_000).then(() => p.child.kill('SIGKILL'))])));
}

/** Submit `n` jobs (at most SUBMITTERS uploads at once; a 503 is retried after its Retry-After) and wait for each. */
async function runJobs(url: string, n: number, audio: Buffer): Promise<{ wallSeconds: number; ids: string[]; statuses: string[] }> {
  const ids: string[] = [];
  const statuses: string[] = [];
  const done: Promise<void>[] = [];
  let next = 0;
  const t0 = performance.now();
  let last = t0;
  const submitOne = async (): Promise<string> => {
    for (;;) {
      const form = multipart({}, [{ name: 'audio', filename: path.basename(AUDIO), content: audio }]);
      const res = await fetch(`${url}/asr/transcribe`, { method: 'POST', headers: form.headers as Record<string, string>, body: form.payload });
      const body = await res.text();
      if (res.status === 503) {
        await sleep(1000 * Number(res.headers.get('retry-after') ?? 1));
        continue;
      }
      if (res.status !== 202 && res.status !== 200) throw new Error(`submit answered ${res.status}: ${body.slice(0, 300)}`);
      return (JSON.parse(body) as { jobId: string }).jobId;
    }
  };
  const waitOne = async (id: string, index: number) => {
    for (;;) {
      const job = (await (await fetch(`${url}/asr/jobs/${id}?wait=600`)).json()) as { status: string };
      if (job.status === 'completed' || job.status === 'failed' || job.status === 'cancelled') {
        statuses[index] = job.status;
        last = Math.max(last, performance.now());
        return;
      }
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(SUBMITTERS, n) }, async () => {
      while (next < n) {
        const index = next++;
        const id = await submitOne();
        ids[index] = id;
        done.push(waitOne(id, index));
      }
    }),
  );
  await Promise.all(done);
  return { wallSeconds: (last - t0) / 1000, ids, statuses };
}

async function byWorker(client: pg.Client, schema: string, ids: string[]): Promise<number[]> {
  try {
    const { rows } = await client.query(`select worker_id, count(*)::int as n from ${schema}.jobs where id = any($1) group by worker_id`, [ids]);
    return rows.map((r: { n: number }) => r.n).sort((a, b) => b - a);
  } catch {
    return []; // the column may be named otherwise in a later schema: the figure is then left out
  }
}

async function measure(setup: string, workerProcesses: number, audio: Buffer, admin: pg.Client): Promise<Row> {
  const schema = `bench_${crypto.randomBytes(5).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-bench-workers-'));
  const common: Record<string, string> = {
    DATABASE_URL,
    SCRUBLINE_DB_SCHEMA: schema,
    SCRUBLINE_DATA_DIR: dataDir, // the shared volume of README "Scaling out"
    SCRUBLINE_SECRET_KEY: 'bench-workers',
    SCRUBLINE_BUILD_MODELS_AT_START: '0',
    LOG_LEVEL: 'info',
    ...(CONCURRENCY ? { SCRUBLINE_WORKERS: CONCURRENCY } : {}),
  };
  const procs: Proc[] = [];
  try {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    // The API process first: it runs the migrations before any worker opens the schema.
    const api = start('serve', 'serve', { ...common, PORT: String(port), HOST: '127.0.0.1', ...(workerProcesses > 0 ? { SCRUBLINE_WORKERS: '0' } : {}) });
    procs.push(api);
    await waitFor(api, async () => (await fetch(`${url}/health`).catch(() => undefined))?.ok === true, 'answer on /health');
    for (let i = 0; i < workerProcesses; i++) {
      const worker = start(`worker ${i + 1}`, 'worker', common);
      procs.push(worker);
      await waitFor(worker, () => worker.output().includes('scrubline worker running'), "'scrubline worker running'");
    }
    if (WARMUP > 0) await runJobs(url, WARMUP, audio);
    const { wallSeconds, ids, statuses } = await runJobs(url, JOBS, audio);
    const row: Row = {
      setup,
      workerProcesses,
      jobs: JOBS,
      wallSeconds,
      jobsPerSecond: JOBS / wallSeconds,
      completed: statuses.filter((s) => s === 'completed').length,
      failed: statuses.filter((s) => s !== 'completed').length,
      byWorker: await byWorker(admin, schema, ids),
    };
    console.error(`  ${setup}: ${JOBS} jobs in ${wallSeconds.toFixed(2)} s`);
    return row;
  } finally {
    await stop(procs);
    await admin.query(`drop schema if exists ${schema} cascade`).catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  if (!fs.existsSync(AUDIO)) throw new Error(`no recording at ${AUDIO} (set SCRUBLINE_DEV_DATA or BENCH_AUDIO)`);
  const audio = fs.readFileSync(AUDIO);
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  const cores = os.availableParallelism();
  const concurrency = CONCURRENCY ?? `${Math.max(1, cores)} (default: one per core)`;
  console.error(`bench/workers: ${JOBS} jobs of ${path.basename(AUDIO)} per setup (+${WARMUP} unmeasured warm-up jobs), PostgreSQL, ${cores} cores`);
  const rows: Row[] = [];
  try {
    rows.push(await measure('one process (serve + built-in workers)', 0, audio, admin));
    for (const n of PROCESSES) rows.push(await measure(`serve (API only) + ${n} worker process${n > 1 ? 'es' : ''}`, n, audio, admin));
    // The baseline again at the end: how much the shared machine drifted during the run.
    rows.push(await measure('one process again (drift check)', 0, audio, admin));
  } finally {
    await admin.end();
  }
  const baseline = (rows[0].jobsPerSecond + rows[rows.length - 1].jobsPerSecond) / 2;

  console.log(`\nJob throughput, ${JOBS} jobs of ${path.basename(AUDIO)} (${(audio.length / 1024).toFixed(0)} KB) through the API on PostgreSQL`);
  console.log(`machine: ${cores} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), node ${process.version}; job concurrency per process: ${concurrency}`);
  console.log('| setup | worker processes | wall s | jobs/s | vs one process | completed | jobs per worker |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const r of rows) {
    console.log(
      `| ${r.setup} | ${r.workerProcesses || '- (built in)'} | ${r.wallSeconds.toFixed(2)} | ${r.jobsPerSecond.toFixed(2)} | x${(r.jobsPerSecond / baseline).toFixed(2)} | ${r.completed}/${r.jobs} | ${r.byWorker.join(' / ')} |`,
    );
  }
  console.log(`("vs one process": against the mean of the two one-process runs, ${baseline.toFixed(2)} jobs/s.)`);
  const out = path.join(ROOT, 'bench', 'results', `workers-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify({ jobs: JOBS, warmup: WARMUP, audio: path.relative(ROOT, AUDIO), cores, concurrency, node: process.version, rows }, null, 2));
  console.log(`results: ${path.relative(process.cwd(), out)}`);
  if (rows.some((r) => r.failed > 0)) {
    console.error('BENCHMARK FAILED: some jobs did not complete');
    process.exitCode = 1;
  }
}

await main();
