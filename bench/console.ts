// The console's weight and speed on an agent desktop: the size of its JavaScript and CSS (raw and gzip, what the
// jobs view loads first and what each other view adds), and the time to first render of the jobs view measured in
// the browser (headless Chromium): from navigation start to the list drawn with its data, on an empty store (the
// baseline, same run) and with 1,000 jobs stored, at the default page (50 rows) and the largest (500 rows).
//
//   npx tsx bench/console.ts          (BENCH_REPEAT=7: median of 7 fresh page loads per case)
// Results: printed, and written to bench/results/console-<time>.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import pino from 'pino';
import { chromium } from 'playwright-core';
import { buildApp } from '../src/api/app.js';
import { loadConfig } from '../src/config.js';
import { createServices } from '../src/services.js';
import { CHROMIUM, CHROMIUM_ARGS, CONSOLE_BUILD, ensureConsoleBuilt } from '../test/helpers/console.js';

const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 7));
const JOBS = Number(process.env.BENCH_JOBS ?? 1000);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (n: number) => Number((n / 1024).toFixed(1));

function sizes() {
  const html = fs.readFileSync(path.join(CONSOLE_BUILD, 'index.html'), 'utf8');
  const first = new Set([...html.matchAll(/(?:src|href)="\/console\/(assets\/[^"]+)"/g)].map((m) => m[1]));
  const files = fs.readdirSync(path.join(CONSOLE_BUILD, 'assets')).map((name) => {
    const data = fs.readFileSync(path.join(CONSOLE_BUILD, 'assets', name));
    return { file: `assets/${name}`, bytes: data.length, gzip: zlib.gzipSync(data, { level: 9 }).length, initial: first.has(`assets/${name}`) };
  });
  const sum = (list: typeof files, key: 'bytes' | 'gzip') => list.reduce((n, f) => n + f[key], 0);
  const js = files.filter((f) => f.file.endsWith('.js'));
  return {
    files,
    initialJsGzip: sum(js.filter((f) => f.initial), 'gzip'),
    initialJsBytes: sum(js.filter((f) => f.initial), 'bytes'),
    allJsGzip: sum(js, 'gzip'),
    allJsBytes: sum(js, 'bytes'),
    initialCssGzip: sum(files.filter((f) => f.initial && f.file.endsWith('.css')), 'gzip'),
  };
}

async function main() {
  ensureConsoleBuilt();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-bench-console-'));
  const config = loadConfig({ SCRUBLINE_DATA_DIR: dataDir, SCRUBLINE_SECRET_KEY: 'bench', LOG_LEVEL: 'silent' });
  const services = await createServices(config, pino({ level: 'silent' }));
  const app = await buildApp(services);
  // No worker runs: the jobs stay queued, so the page keeps its live refresh on, as while calls are processed.
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });

  async function firstRender(hash: string): Promise<{ ms: number; fcp: number; scripts: number; session: number; jobsApi: number; afterData: number; rows: number }> {
    const times: number[] = [];
    const fcps: number[] = [];
    const parts: { scripts: number; session: number; jobsApi: number; afterData: number }[] = [];
    let rows = 0;
    for (let i = 0; i < REPEAT; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${base}/console/${hash}`);
      await page.waitForFunction(() => document.body.dataset.jobsRendered !== undefined, undefined, { timeout: 120_000 });
      const m = await page.evaluate(() => {
        const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
        // (No named helper functions in here: tsx would wrap them in a helper the page does not have.)
        const jobs = resources.filter((r) => r.name.includes('/asr/jobs?')).at(-1);
        const session = resources.filter((r) => r.name.endsWith('/console/session')).at(-1);
        const scripts = resources.filter((r) => r.name.includes('/console/assets/')).reduce((end, r) => Math.max(end, r.responseEnd), 0);
        return {
          ms: Number(document.body.dataset.jobsRendered),
          fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
          // Where the time goes: the page's own files loaded, the session call, the jobs call, and drawing after it.
          scripts,
          session: session ? session.responseEnd - session.startTime : NaN,
          jobsApi: jobs ? jobs.responseEnd - jobs.startTime : NaN,
          afterData: jobs ? Number(document.body.dataset.jobsRendered) - jobs.responseEnd : NaN,
          rows: document.querySelectorAll('tr[data-job]').length,
        };
      });
      times.push(m.ms);
      fcps.push(m.fcp);
      parts.push(m);
      rows = m.rows;
      await context.close();
    }
    const med = (key: keyof (typeof parts)[number]) => Number(median(parts.map((p) => p[key])).toFixed(1));
    return { ms: Number(median(times).toFixed(1)), fcp: Number(median(fcps).toFixed(1)), scripts: med('scripts'), session: med('session'), jobsApi: med('jobsApi'), afterData: med('afterData'), rows };
  }

  try {
    const size = sizes();
    const baseline = await firstRender('#/jobs');
    const started = Date.now();
    for (let i = 0; i < JOBS; i++) {
      await services.jobs.submitText({ text: `Agent: thank you for calling.\nCaller: this is call number ${i}.`, fileName: `call-${String(i).padStart(4, '0')}.wav` }, {});
    }
    const seeded = (Date.now() - started) / 1000;
    const page50 = await firstRender('#/jobs');
    const page500 = await firstRender('#/jobs?size=500');
    const report = {
      date: new Date().toISOString(),
      machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version },
      repeat: REPEAT,
      jobs: JOBS,
      seededSeconds: Number(seeded.toFixed(1)),
      size,
      firstRenderMs: { emptyStore: baseline, jobs1000page50: page50, jobs1000page500: page500 },
    };
    console.log(`console JavaScript: jobs view ${kb(size.initialJsGzip)} KB gzip (${kb(size.initialJsBytes)} KB raw) + CSS ${kb(size.initialCssGzip)} KB gzip; all views ${kb(size.allJsGzip)} KB gzip (${kb(size.allJsBytes)} KB raw)`);
    for (const f of size.files) console.log(`  ${f.file.padEnd(40)} ${String(kb(f.bytes)).padStart(7)} KB  ${String(kb(f.gzip)).padStart(6)} KB gzip${f.initial ? '  (jobs view)' : ''}`);
    console.log(`time to first render of the jobs view, ms (median of ${REPEAT} fresh loads):`);
    console.log('  case                      first render   FCP   files loaded   /console/session   /asr/jobs   drawing after data   rows');
    for (const [name, r] of [['empty store (baseline)', baseline], [`${JOBS} jobs, 50 per page`, page50], [`${JOBS} jobs, 500 per page`, page500]] as const) {
      console.log(`  ${name.padEnd(26)}${String(r.ms).padStart(12)}${String(r.fcp).padStart(7)}${String(r.scripts).padStart(14)}${String(r.session).padStart(19)}${String(r.jobsApi).padStart(12)}${String(r.afterData).padStart(21)}${String(r.rows).padStart(7)}`);
    }
    const out = path.join(import.meta.dirname, 'results');
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(path.join(out, `console-${report.date.replace(/[:.]/g, '-')}.json`), JSON.stringify(report, null, 2));
  } finally {
    await browser.close();
    await app.close();
    await services.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
