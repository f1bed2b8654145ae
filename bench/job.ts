// A transcription job through the service against the engine called directly, on the same recordings in the
// same run: the overhead the service adds (multipart upload, probe, queue, worker, storage, the job record
// with its transcript shapes in the answer) over recognizeFile itself.
//
//   npx tsx bench/job.ts            (BENCH_REPEAT=3: median of 3 timings per file and path)
// Results: printed, and written to bench/results/job-<time>.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { buildApp } from '../src/api/app.js';
import { loadConfig } from '../src/config.js';
import { closeSharedPool } from '../src/engine/pool.js';
import { recognizeFile } from '../src/engine/recognize.js';
import { createServices } from '../src/services.js';
import { devDataDir } from '../test/helpers/devData.js';
import { multipart } from '../test/helpers/multipart.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 3));
const DEV = devDataDir();
const FILES = ['audio/jfk.wav', 'audio/ljspeech/LJ001-0001.flac', 'audio/ljspeech/LJ001-0005.flac', 'audio/stereo/stereo_diarization.wav']
  .map((f) => path.join(DEV, f))
  .filter((f) => fs.existsSync(f));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  if (FILES.length === 0) throw new Error(`no dev recordings under ${DEV} (set SCRUBLINE_DEV_DATA)`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-bench-job-'));
  const config = loadConfig({ SCRUBLINE_DATA_DIR: dataDir, SCRUBLINE_SECRET_KEY: 'bench', LOG_LEVEL: 'silent' });
  const services = await createServices(config, pino({ level: 'silent' }));
  const app = await buildApp(services);
  await app.ready();
  await services.worker.start();
  const model = String((await services.parameters.engineParams()).model);

  const rows: { file: string; audioSeconds: number; direct: number; service: number; ratio: number }[] = [];
  for (const file of FILES) {
    const direct: number[] = [];
    const service: number[] = [];
    let audioSeconds = 0;
    for (let i = 0; i < REPEAT; i++) {
      let t = performance.now();
      const transcript = await recognizeFile(file, { model, params: await services.parameters.engineParams() });
      direct.push((performance.now() - t) / 1000);
      audioSeconds = transcript.audioSeconds;

      const form = multipart({}, [{ name: 'audio', filename: path.basename(file), content: fs.readFileSync(file) }]);
      t = performance.now();
      const res = await app.inject({ method: 'POST', url: '/asr/transcribe?wait=600', ...form });
      service.push((performance.now() - t) / 1000);
      if (res.statusCode !== 200 || JSON.parse(res.body).status !== 'completed') throw new Error(`job failed: ${res.statusCode} ${res.body.slice(0, 300)}`);
    }
    const d = median(direct);
    const s = median(service);
    rows.push({ file: path.basename(file), audioSeconds, direct: d, service: s, ratio: s / d });
  }
  await app.close();
  await services.close();
  await closeSharedPool();
  fs.rmSync(dataDir, { recursive: true, force: true });

  console.log(`Transcription job through the service vs recognizeFile directly (median of ${REPEAT}; ${os.availableParallelism()} cores, node ${process.version})`);
  console.log('file                        audio s   direct s  RTF     service s  RTF     service/direct');
  for (const r of rows) {
    console.log(
      `${r.file.padEnd(27)} ${r.audioSeconds.toFixed(1).padStart(7)}   ${r.direct.toFixed(2).padStart(7)}  ${(r.direct / r.audioSeconds).toFixed(3)}   ${r.service.toFixed(2).padStart(8)}  ${(r.service / r.audioSeconds).toFixed(3)}   x${r.ratio.toFixed(3)}`,
    );
  }
  const total = (k: 'direct' | 'service') => rows.reduce((n, r) => n + r[k], 0);
  const audio = rows.reduce((n, r) => n + r.audioSeconds, 0);
  console.log(`all                         ${audio.toFixed(1).padStart(7)}   ${total('direct').toFixed(2).padStart(7)}  ${(total('direct') / audio).toFixed(3)}   ${total('service').toFixed(2).padStart(8)}  ${(total('service') / audio).toFixed(3)}   x${(total('service') / total('direct')).toFixed(3)}`);
  const out = path.join(here, 'results', `job-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify({ repeat: REPEAT, model, rows }, null, 2));
  console.log(`results: ${path.relative(process.cwd(), out)}`);
}

await main();
