// Short jobs, two cores and long calls (issue 23), each against its baseline in the same run:
//
//   1. short jobs: a 2-5 s clip as a job (POST /asr/transcribe?wait=600: multipart upload, probe, queue, worker,
//      decode, pool, storage, events, the answer) against the engine alone on the same clip — PocketSphinx called
//      on this thread on the clip's PCM (same model, same speech segments), with a fresh decoder (what one call of
//      the library costs) and, where this build has them, a warm one (decoder kept, reset per recording). Wall
//      seconds and CPU seconds (this process, its worker threads and its children: ffprobe, ffmpeg);
//   2. two cores against one: the same batch of 8 recordings submitted at once to a service pinned to one core
//      (`taskset -c 0`: one decoder thread, one job slot) and to two (`taskset -c 0,1`), each a fresh process;
//   3. a long call: a 2-minute stereo 8 kHz mu-law call (dev clips in turns, built here with ffmpeg) as a job
//      against the engine alone on its channels one after another (fresh decoder per 60 s batch, as the engine
//      cuts them).
//
//   npx tsx bench/short-jobs.ts          (BENCH_REPEAT=5 medians; BENCH_PARTS=short,cores,long picks parts)
// Results: printed, and written to bench/results/short-jobs-<time>.json.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { buildApp } from '../src/api/app.js';
import { loadConfig } from '../src/config.js';
import { decodeChannels } from '../src/audio/decode.js';
import { installedModels } from '../src/engine/models.js';
import { closeSharedPool } from '../src/engine/pool.js';
import * as decoder from '../src/engine/pocketsphinx/decoder.js';
import { BATCH_SECONDS, MAX_UNIT_SECONDS } from '../src/engine/pocketsphinx/engine.js';
import { speechBatches } from '../src/engine/speechBatches.js';
import { createServices } from '../src/services.js';
import { devDataDir } from '../test/helpers/devData.js';
import { multipart } from '../test/helpers/multipart.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 5));
const PARTS = new Set((process.env.BENCH_PARTS ?? 'short,cores,long').split(','));
const DEV = devDataDir();
const audio = (f: string) => path.join(DEV, 'audio', f);
const BATCH = ['jfk.wav', 'stereo/stereo_diarization.wav', ...['0001', '0002', '0003', '0005', '0007', '0008'].map((n) => `ljspeech/LJ001-${n}.flac`)].map(audio);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const TICK = 100; // USER_HZ of /proc/<pid>/stat

/** CPU seconds of this process (every thread) and of its children that ended (ffprobe, ffmpeg). */
function cpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  // After the command name: state is field 3, so cutime (16) and cstime (17) are at 13 and 14 here.
  return (user + system) / 1e6 + (Number(fields[13]) + Number(fields[14])) / TICK;
}

async function measure<T>(work: () => Promise<T> | T): Promise<{ wall: number; cpu: number; value: T }> {
  const c = cpuSeconds();
  const t = performance.now();
  const value = await work();
  return { wall: (performance.now() - t) / 1000, cpu: cpuSeconds() - c, value };
}

function ffmpeg(args: string[]): void {
  execFileSync('ffmpeg', ['-nostdin', '-hide_banner', '-v', 'error', '-y', ...args]);
}

/** The bench's recordings, made from the dev clips: telephone prompts (8 kHz mu-law and PCM WAV) and the long call. */
function makeClips(dir: string): { short: { name: string; file: string }[]; long: string } {
  const ivrMulaw = path.join(dir, 'ivr-mulaw-8k.wav');
  ffmpeg(['-i', audio('ljspeech/LJ001-0006.flac'), '-ar', '8000', '-ac', '1', '-acodec', 'pcm_mulaw', ivrMulaw]);
  const ivrPcm = path.join(dir, 'ivr-pcm-8k.wav');
  ffmpeg(['-i', audio('ljspeech/LJ001-0002.flac'), '-ar', '8000', '-ac', '1', '-acodec', 'pcm_s16le', ivrPcm]);
  const wav16 = path.join(dir, 'prompt-pcm-16k.wav');
  ffmpeg(['-i', audio('jfk.wav'), '-t', '4', '-acodec', 'pcm_s16le', wav16]);
  // Two parties in turns: each clip on one side, 1.5 s pause, the next clip on the other side; looped to 120 s.
  const clips = ['jfk.wav', ...['0001', '0002', '0003', '0004', '0005', '0006', '0007', '0008'].map((n) => `ljspeech/LJ001-${n}.flac`)];
  const inputs = clips.flatMap((c) => ['-i', audio(c)]);
  const parts: string[] = [];
  // Each side: its own clips where it speaks, the other side's at volume 0 (silence of the same length).
  const order = (side: 'l' | 'r') => clips.map((_, i) => ((i % 2 === 0) === (side === 'l') ? `[s${i}]` : `[q${i}]`));
  clips.forEach((_, i) => parts.push(`[${i}:a]aresample=8000,aformat=sample_fmts=s16:channel_layouts=mono,apad=pad_dur=1.5,asplit=2[s${i}][u${i}]`, `[u${i}]volume=0[q${i}]`));
  const filter = [...parts, `${order('l').join('')}concat=n=${clips.length}:v=0:a=1,aloop=loop=-1:size=2e9[l]`, `${order('r').join('')}concat=n=${clips.length}:v=0:a=1,aloop=loop=-1:size=2e9[r]`, '[l][r]join=inputs=2:channel_layout=stereo[out]'].join(';');
  const long = path.join(dir, 'call-stereo-8k-120s.wav');
  ffmpeg([...inputs, '-filter_complex', filter, '-map', '[out]', '-t', '120', '-acodec', 'pcm_mulaw', long]);
  return {
    short: [
      { name: 'IVR prompt, 8 kHz mu-law WAV', file: ivrMulaw },
      { name: 'IVR prompt, 8 kHz PCM WAV', file: ivrPcm },
      { name: 'prompt, 16 kHz PCM WAV', file: wav16 },
      { name: 'prompt, 22 kHz FLAC', file: audio('ljspeech/LJ001-0008.flac') },
    ],
    long,
  };
}

async function startService(dataDir: string) {
  const config = loadConfig({ SCRUBLINE_DATA_DIR: dataDir, SCRUBLINE_SECRET_KEY: 'bench', LOG_LEVEL: 'silent' });
  const services = await createServices(config, pino({ level: 'silent' }));
  const app = await buildApp(services);
  await app.ready();
  await services.worker.start();
  const submit = async (file: string) => {
    const form = multipart({}, [{ name: 'audio', filename: path.basename(file), content: fs.readFileSync(file) }]);
    const res = await app.inject({ method: 'POST', url: '/asr/transcribe?wait=600', ...form });
    const body = JSON.parse(res.body);
    if (res.statusCode !== 200 || body.status !== 'completed') throw new Error(`job failed: ${res.statusCode} ${res.body.slice(0, 300)}`);
    return body as { model: string; id: string };
  };
  const close = async () => {
    await app.close();
    await services.close();
    await closeSharedPool();
  };
  return { services, submit, close };
}

type Model = decoder.PocketSphinxModel;
function modelFiles(name: string): Model {
  const info = installedModels().find((m) => m.name === name);
  if (!info?.files) throw new Error(`${name} is not installed`);
  return { ...info.files, sampleRate: info.sampleRate };
}

/** The engine alone: each channel's batches (as the engine cuts them) decoded on this thread, one after another. */
function engineAlone(model: Model, channels: Int16Array[], warm: boolean): string[] {
  const words: string[] = [];
  for (const samples of channels) {
    const { batches } = speechBatches(samples, model.sampleRate, {}, { maxUnitSeconds: MAX_UNIT_SECONDS, batchSeconds: BATCH_SECONDS });
    for (const b of batches) {
      const warmDecode = (decoder as { decodeWarm?: typeof decoder.decodePcm }).decodeWarm;
      const r = warm && warmDecode ? warmDecode(model, b.samples, b.units) : decoder.decodePcm(model, b.samples, b.units);
      words.push(...r.words.map((w) => w.word));
    }
  }
  return words;
}

const hasWarm = typeof (decoder as { decodeWarm?: unknown }).decodeWarm === 'function';

interface ShortRow { clip: string; audioSeconds: number; model: string; fresh: { wall: number; cpu: number }; warm?: { wall: number; cpu: number }; job: { wall: number; cpu: number } }

async function shortJobs(clips: { name: string; file: string }[], dataDir: string): Promise<ShortRow[]> {
  const svc = await startService(dataDir);
  const rows: ShortRow[] = [];
  try {
    for (const clip of clips) {
      const first = await svc.submit(clip.file); // warm-up: the pool's threads, the page cache, the model chosen
      const model = modelFiles(first.model);
      const pcm = await decodeChannels(clip.file, { sampleRate: model.sampleRate });
      engineAlone(model, pcm.channels, true);
      const fresh: { wall: number; cpu: number }[] = [];
      const warm: { wall: number; cpu: number }[] = [];
      const job: { wall: number; cpu: number }[] = [];
      for (let i = 0; i < REPEAT; i++) {
        fresh.push(await measure(() => engineAlone(model, pcm.channels, false)));
        if (hasWarm) warm.push(await measure(() => engineAlone(model, pcm.channels, true)));
        job.push(await measure(() => svc.submit(clip.file)));
      }
      const med = (xs: { wall: number; cpu: number }[]) => ({ wall: median(xs.map((x) => x.wall)), cpu: median(xs.map((x) => x.cpu)) });
      rows.push({ clip: clip.name, audioSeconds: pcm.durationSeconds, model: first.model, fresh: med(fresh), ...(hasWarm && { warm: med(warm) }), job: med(job) });
    }
  } finally {
    await svc.close();
  }
  return rows;
}

/** Child mode: the batch at once through a service on the cores this process may use; prints JSON. */
async function batchChild(dataDir: string): Promise<void> {
  const svc = await startService(dataDir);
  try {
    // Warm-up: as many jobs at once as there are cores, so each pool thread has started and loaded its model.
    await Promise.all(BATCH.slice(0, os.availableParallelism()).map((f) => svc.submit(f)));
    const m = await measure(() => Promise.all(BATCH.map((f) => svc.submit(f))));
    console.log(JSON.stringify({ cores: os.availableParallelism(), wall: m.wall, cpu: m.cpu }));
  } finally {
    await svc.close();
  }
}

async function twoCores(dataDir: string): Promise<{ one: number; two: number; runs: { cores: number; wall: number; cpu: number }[] }> {
  const runs: { cores: number; wall: number; cpu: number }[] = [];
  for (let i = 0; i < REPEAT; i++) {
    for (const cpus of ['0', '0,1']) {
      const dir = fs.mkdtempSync(path.join(dataDir, 'cores-'));
      const out = spawnSync('taskset', ['-c', cpus, process.execPath, '--import', 'tsx', fileURLToPath(import.meta.url), '--batch', dir], { encoding: 'utf8' });
      if (out.status !== 0) throw new Error(`batch child failed: ${out.stderr.slice(-2000)}`);
      runs.push(JSON.parse(out.stdout.trim().split('\n').pop()!));
    }
  }
  const wall = (n: number) => median(runs.filter((r) => r.cores === n).map((r) => r.wall));
  return { one: wall(1), two: wall(2), runs };
}

async function longCall(file: string, dataDir: string) {
  const svc = await startService(dataDir);
  try {
    const first = await svc.submit(file);
    const model = modelFiles(first.model);
    const pcm = await decodeChannels(file, { sampleRate: model.sampleRate });
    const fresh: { wall: number; cpu: number }[] = [];
    const job: { wall: number; cpu: number }[] = [];
    for (let i = 0; i < Math.min(REPEAT, 3); i++) {
      fresh.push(await measure(() => engineAlone(model, pcm.channels, false)));
      job.push(await measure(() => svc.submit(file)));
    }
    return {
      audioSeconds: pcm.durationSeconds,
      model: first.model,
      engine: { wall: median(fresh.map((x) => x.wall)), cpu: median(fresh.map((x) => x.cpu)) },
      job: { wall: median(job.map((x) => x.wall)), cpu: median(job.map((x) => x.cpu)) },
    };
  } finally {
    await svc.close();
  }
}

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-bench-short-'));
  const f2 = (x: number) => x.toFixed(2);
  const report: Record<string, unknown> = { date: new Date().toISOString(), repeat: REPEAT, cores: os.availableParallelism(), cpu: os.cpus()[0]?.model, node: process.version, load: os.loadavg() };
  try {
    const clips = makeClips(tmp);
    console.log(`Short jobs, two cores, a long call (median of ${REPEAT}; ${os.availableParallelism()} × ${os.cpus()[0]?.model}; node ${process.version}; load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')})\n`);
    if (PARTS.has('short')) {
      const rows = await shortJobs(clips.short, fs.mkdtempSync(path.join(tmp, 'short-')));
      report.short = rows;
      console.log('1. Short job against the engine alone on the same clip (wall s / CPU s; the ratio is job / engine alone, fresh decoder)\n');
      console.log(`| clip | audio s | model | engine, fresh decoder | ${hasWarm ? 'engine, warm decoder | ' : ''}job | job / engine (wall) | job / engine (CPU) |`);
      console.log(`|---|---:|---|---:|${hasWarm ? '---:|' : ''}---:|---:|---:|`);
      for (const r of rows) {
        console.log(`| ${r.clip} | ${r.audioSeconds.toFixed(1)} | ${r.model} | ${f2(r.fresh.wall)} / ${f2(r.fresh.cpu)} | ${r.warm ? `${f2(r.warm.wall)} / ${f2(r.warm.cpu)} | ` : ''}${f2(r.job.wall)} / ${f2(r.job.cpu)} | x${f2(r.job.wall / r.fresh.wall)} | x${f2(r.job.cpu / r.fresh.cpu)} |`);
      }
      console.log('');
    }
    if (PARTS.has('cores')) {
      const c = await twoCores(tmp);
      report.cores = c;
      console.log(`2. The batch of ${BATCH.length} recordings at once: one core (taskset -c 0) ${f2(c.one)} s, two cores (-c 0,1) ${f2(c.two)} s: x${f2(c.one / c.two)}`);
      // CPU seconds over wall seconds: how many cores the service got busy (on a shared machine, what it was let have).
      console.log(`   runs (wall s, CPU s, cores busy): ${c.runs.map((r) => `${r.cores}c ${f2(r.wall)} / ${f2(r.cpu)} / ${f2(r.cpu / r.wall)}`).join(', ')}\n`);
    }
    if (PARTS.has('long')) {
      const l = await longCall(clips.long, fs.mkdtempSync(path.join(tmp, 'long-')));
      report.long = l;
      console.log(`3. Long call (${l.audioSeconds.toFixed(0)} s stereo 8 kHz mu-law, ${l.model}): engine alone ${f2(l.engine.wall)} s wall / ${f2(l.engine.cpu)} s CPU, job ${f2(l.job.wall)} s / ${f2(l.job.cpu)} s: x${f2(l.job.wall / l.engine.wall)} wall`);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const out = path.join(here, 'results', `short-jobs-${String(report.date).replace(/[:.]/g, '-')}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify(report, null, 2));
  console.log(`\nresults: ${path.relative(process.cwd(), out)}`);
}

if (process.argv[2] === '--batch') await batchChild(process.argv[3]);
else await main();
