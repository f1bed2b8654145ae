// Does redaction keep the event loop free, and what does the worker hop cost? In one run:
//   1. /health latency (p50/p99/max) on an idle service, and while a record with a hostile regex rule
//      (/(a|a)*$/ over 1 MiB of "aaaa…!") and a record with one 1 MiB word are redacted, for each mode:
//        inline    every redaction on the main thread (SCRUBLINE_REDACT_INLINE_CHARS=Infinity): before this change
//        default   inputs over 16K characters off the loop, small ones inline: after this change
//        offloop   every redaction on a worker (SCRUBLINE_REDACT_INLINE_CHARS=0)
//   2. POST /system/cache/post-call throughput for a small record (~2 KB, redaction on) in each mode (autocannon).
//   3. In this process: one redactRecord inline against redactRecordOffLoop with every input sent to a worker,
//      sequentially, for records of 1K to 256K characters: the hop's cost by size (what the 16K threshold rests on).
//
//   node --import tsx bench/event-loop.ts
//   BENCH_SECONDS=5 BENCH_HEALTH=300 node --import tsx bench/event-loop.ts
//
// Each service runs in a child process (bench/server.ts, SQLite in a temporary directory), so that the load
// generator does not share an event loop with it.
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { defaultRedactorThreads } from '../src/workers/pool.js';
import type { EventRecord } from '../src/schema/resources/eventRecord.js';
import type { ChildMessage } from './server.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const seconds = Number(process.env.BENCH_SECONDS || 5);
const healthCount = Number(process.env.BENCH_HEALTH || 300);

/** Every kind (detection is linear in a word's length for all of them). */
const KINDS = ['all'];
const CARD = '4111 1111 1111 1111';
const utterances = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ speaker: i % 2, text: `caller ${i} says my card is ${CARD} and my social is 123-45-6789, call me on 555 010 ${1000 + (i % 9000)}` }));
const heavyRecords = (tag: string) => [
  {
    eventId: `hostile-${tag}`,
    redactionRequest: { types: KINDS },
    redactionTypes: [{ name: 'shape', rules: [{ value: '/(a|a)*$/', type: 'Run' }] }],
    utterances: [{ speaker: 0, text: `${'a'.repeat(1 << 20)}!` }, ...utterances(1000)],
  },
  { eventId: `word-${tag}`, redactionRequest: { types: KINDS }, utterances: [{ speaker: 0, text: `then ${'w'.repeat(1 << 20)} end` }, ...utterances(1000)] },
];
const smallRecord = (eventId: string) => ({ eventId, redactionRequest: { types: KINDS }, utterances: utterances(12) });

// ------------------------------------------------------------------------------------------------ helpers

function percentiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? NaN;
  return { n: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] ?? NaN };
}
const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(1)} ms` : '-');
const line = (name: string, p: ReturnType<typeof percentiles>) => `${name.padEnd(34)} n=${String(p.n).padStart(4)}  p50 ${ms(p.p50).padStart(10)}  p99 ${ms(p.p99).padStart(10)}  max ${ms(p.max).padStart(10)}`;

async function health(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${url}/health`);
  await res.text();
  if (res.status !== 200) throw new Error(`/health answered ${res.status}`);
  return performance.now() - started;
}

async function postRecord(url: string, record: object): Promise<number> {
  const res = await fetch(`${url}/system/cache/post-call`, { method: 'POST', headers: { 'content-type': 'application/json', prefer: 'return=minimal' }, body: JSON.stringify(record) });
  const body = await res.text();
  if (res.status >= 300) throw new Error(`post-call answered ${res.status}: ${body.slice(0, 500)}`);
  return res.status;
}

interface Service {
  url: string;
  stop(): Promise<void>;
}

async function startService(inlineChars: string): Promise<Service> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-bench-loop-'));
  const child: ChildProcess = fork(path.join(here, 'server.ts'), [], {
    cwd: root,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_TARGET: 'service', BENCH_LOG: 'warn', SCRUBLINE_DATA_DIR: dataDir, SCRUBLINE_WORKERS: '0', SCRUBLINE_REDACT_INLINE_CHARS: inlineChars },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the service exited with ${code} before listening`)));
    child.on('message', (m: ChildMessage) => (m.type === 'ready' ? resolve(m.address) : m.type === 'error' && reject(new Error(m.message))));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => {
          fs.rmSync(dataDir, { recursive: true, force: true });
          resolve();
        });
        child.send({ type: 'stop' });
      }),
  };
}

// ------------------------------------------------------------------------------------------- the service

interface ModeResult {
  mode: string;
  idle: ReturnType<typeof percentiles>;
  busy: ReturnType<typeof percentiles>;
  heavySeconds: number;
  smallPerSecond: number;
  smallLatency: { p50: number; p99: number };
}

async function runMode(mode: string, inlineChars: string): Promise<ModeResult> {
  const service = await startService(inlineChars);
  try {
    // Warm-up: the first redactions load the recognizers and compile them hot; off the loop, both workers start.
    await Promise.all(heavyRecords(`${mode}-warm`).map((r) => postRecord(service.url, r)));
    for (let i = 0; i < 50; i++) await postRecord(service.url, smallRecord(`warm-${mode}-${i}`));
    for (let i = 0; i < 20; i++) await health(service.url);

    const idle: number[] = [];
    for (let i = 0; i < healthCount; i++) idle.push(await health(service.url));

    // /health, one after another, for as long as the two heavy records take.
    const busy: number[] = [];
    let done = false;
    const started = performance.now();
    const heavy = Promise.all(heavyRecords(mode).map((r) => postRecord(service.url, r))).finally(() => (done = true));
    while (!done) busy.push(await health(service.url));
    await heavy;
    const heavySeconds = (performance.now() - started) / 1000;

    let n = 0;
    const cannon = await autocannon({
      url: `${service.url}/system/cache/post-call`,
      connections: 10,
      duration: seconds,
      headers: { 'content-type': 'application/json', prefer: 'return=minimal' },
      requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: JSON.stringify(smallRecord(`small-${mode}-${n++}`)) }) }],
    });
    if (cannon.non2xx > 0 || cannon.errors > 0) throw new Error(`small records: ${cannon.non2xx} non-2xx, ${cannon.errors} errors`);
    return { mode, idle: percentiles(idle), busy: percentiles(busy), heavySeconds, smallPerSecond: cannon.requests.mean, smallLatency: { p50: cannon.latency.p50, p99: cannon.latency.p99 } };
  } finally {
    await service.stop();
  }
}

// ------------------------------------------------------------------------------------ the hop, in-process

async function hopBySize(): Promise<{ chars: number; inlineMs: number; offLoopMs: number }[]> {
  // Everything off the loop here (the threshold is read when the module loads).
  process.env.SCRUBLINE_REDACT_INLINE_CHARS = '0';
  const { redactRecordOffLoop, closeRedactionPool } = await import('../src/workers/index.js');
  const { redactRecord } = await import('../src/redact/redactRecord.js');
  const { recordRules } = await import('../src/redact/recordRules.js');
  const { Masker } = await import('../src/redact/masks.js');
  const { resolveRules } = await import('../src/redact/policy.js');
  const rules = resolveRules({ types: KINDS });
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const out = [];
  for (const count of [8, 30, 120, 480, 1920]) {
    const record = { eventId: 'e', utterances: utterances(count) } as EventRecord;
    const chars = JSON.stringify(record).length;
    const rounds = Math.max(5, Math.round(960 / count));
    // Warm both sides, then alternate them so that load from elsewhere falls on both alike; medians per call.
    for (let i = 0; i < 3; i++) {
      await redactRecordOffLoop(record, rules, 'k');
      redactRecord(record, rules, new Masker('k'), recordRules(record));
    }
    const inline: number[] = [];
    const offLoop: number[] = [];
    for (let i = 0; i < rounds; i++) {
      let t = performance.now();
      redactRecord(record, rules, new Masker('k'), recordRules(record));
      inline.push(performance.now() - t);
      t = performance.now();
      await redactRecordOffLoop(record, rules, 'k');
      offLoop.push(performance.now() - t);
    }
    out.push({ chars, inlineMs: median(inline), offLoopMs: median(offLoop) });
  }
  await closeRedactionPool();
  return out;
}

// ------------------------------------------------------------------------------------------------- main

console.log(`Event-loop benchmark (${os.availableParallelism()} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, node ${process.version})`);
console.log(`redaction workers: ${defaultRedactorThreads()} (nice 10); inline up to 16K characters by default`);
console.log(`heavy: two records of ~1.1 MB (1 MiB "aaaa…!" under /(a|a)*$/; one 1 MiB word) + 1000 utterances each; kinds ${KINDS.join(', ')}`);
const results: ModeResult[] = [];
for (const [mode, chars] of [
  ['inline (before)', 'Infinity'],
  ['default: >16K off the loop (after)', ''],
  ['offloop: everything on a worker', '0'],
] as const) {
  process.stdout.write(`${mode} ... `);
  results.push(await runMode(mode, chars));
  console.log('done');
}
for (const r of results) {
  console.log(`\n${r.mode}`);
  console.log(line('  /health, idle', r.idle));
  console.log(line('  /health, during the heavy records', r.busy));
  console.log(`  heavy records answered after      ${r.heavySeconds.toFixed(2)} s`);
  console.log(`  small record (~2 KB) post-call    ${r.smallPerSecond.toFixed(0)} req/s  (p50 ${r.smallLatency.p50} ms, p99 ${r.smallLatency.p99} ms, 10 connections, ${seconds} s)`);
}
console.log('\nOne record redacted, in this process, one at a time (median per call): inline vs sent to a worker and back');
for (const h of await hopBySize()) {
  console.log(`  ${String(h.chars).padStart(7)} chars   inline ${h.inlineMs.toFixed(2).padStart(8)} ms   worker ${h.offLoopMs.toFixed(2).padStart(8)} ms   hop +${(h.offLoopMs - h.inlineMs).toFixed(2)} ms`);
}
