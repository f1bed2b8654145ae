// CPU per POST /system/cache/post-call of the bench record (bench/fixtures/realisticRecord.ts), one request after
// another through the real app (startServer, SQLite in a temporary directory, app.inject: no socket, no client
// in the way). Per request: the CPU of the event loop's thread (process.threadCpuUsage) and of the whole process
// (process.cpuUsage: the event loop, the redaction workers, SQLite). CPU time is what a request costs whatever else
// the machine runs; throughput (npm run bench) and wall time on a shared machine are not.
//
//   node --import tsx bench/post-call-cost.ts          BENCH_REQUESTS=20 measured after BENCH_WARMUP=4
//   OLD_TREE=/path/to/old/checkout node --import tsx bench/post-call-cost.ts
//                                                     this tree and the old one, each in a fresh process, alternating
//                                                     BENCH_ROUNDS (3) times; medians of each figure per tree
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/observability/logger.js';
import { startServer } from '../src/server.js';
import { realisticRecord } from './fixtures/realisticRecord.js';

if (process.env.OLD_TREE) {
  alternate(process.env.OLD_TREE, Number(process.env.BENCH_ROUNDS ?? 3));
  process.exit(0);
}

/** This bench run in `old` (its own bench/post-call-cost.ts) and here, one after the other, `rounds` times. */
function alternate(old: string, rounds: number): void {
  const here = path.resolve(import.meta.dirname, '..');
  const trees = { old: path.resolve(old), new: here };
  const figures: Record<string, { loop: number[]; cpu: number[]; wall: number[] }> = { old: { loop: [], cpu: [], wall: [] }, new: { loop: [], cpu: [], wall: [] } };
  const env = { ...process.env, OLD_TREE: '' };
  for (let round = 0; round < rounds; round++) {
    for (const [name, tree] of Object.entries(trees)) {
      const out = execFileSync(process.execPath, ['--import', 'tsx', 'bench/post-call-cost.ts'], { cwd: tree, env, encoding: 'utf8' });
      const m = /thread CPU ([\d.]+) ms\/request, process CPU ([\d.]+) ms\/request .*wall median ([\d.]+) ms/.exec(out);
      if (!m) throw new Error(`${name}: no figures in ${out}`);
      figures[name].loop.push(Number(m[1]));
      figures[name].cpu.push(Number(m[2]));
      figures[name].wall.push(Number(m[3]));
      console.log(`round ${round + 1} ${name.padEnd(3)} ${out.trim()} (load ${os.loadavg()[0].toFixed(1)})`);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  for (const [name, f] of Object.entries(figures)) {
    console.log(`${name} (${trees[name as keyof typeof trees]}): event-loop thread ${median(f.loop).toFixed(1)} ms, process ${median(f.cpu).toFixed(0)} ms, wall ${median(f.wall).toFixed(0)} ms per request (medians of ${rounds})`);
  }
}

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 4);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-bench-cost-'));
const config = loadConfig({ SCRUBLINE_DATA_DIR: dir, SCRUBLINE_SECRET_KEY: 'bench-secret-key', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' });
const server = await startServer(config, createLogger('info', { write: () => {} }));
const MARK = '"__bench_event_id__"';
const body = JSON.stringify(realisticRecord({ eventId: '__bench_event_id__' }));

let loop = process.threadCpuUsage();
let cpu = process.cpuUsage();
const wall: number[] = [];
try {
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    if (i === WARMUP) {
      loop = process.threadCpuUsage();
      cpu = process.cpuUsage();
    }
    const started = performance.now();
    const res = await server.app.inject({
      method: 'POST',
      url: '/system/cache/post-call',
      headers: { 'content-type': 'application/json' },
      payload: body.replace(MARK, JSON.stringify(`cost-${i}`)),
    });
    if (res.statusCode !== 201 || res.json().status !== 'processed') throw new Error(`answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
    if (i >= WARMUP) wall.push(performance.now() - started);
  }
} finally {
  await server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
const ms = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000 / REQUESTS;
const main = ms(process.threadCpuUsage(loop));
const total = ms(process.cpuUsage(cpu));
wall.sort((a, b) => a - b);
console.log(
  `post-call cost, ${Buffer.byteLength(body)} B record, ${REQUESTS} requests after ${WARMUP} warm-up: ` +
    `event-loop thread CPU ${main.toFixed(1)} ms/request, process CPU ${total.toFixed(0)} ms/request (other threads ${(total - main).toFixed(0)}), wall median ${wall[wall.length >> 1].toFixed(0)} ms`,
);
