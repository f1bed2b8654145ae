// Telephone-band adaptation benchmark, in one run:
//   1. adaptation build time: scripts/build-telephony-model.sh from nothing (a fresh models directory, so
//      nothing is cached), then again (the cached run);
//   2. decode real-time factor with and without the MLLR transform on the same 8 kHz audio: the dev files as
//      8 kHz mu-law (ffmpeg), decoded to 16 kHz PCM, the same speech segments, decodePcm on this thread, no pool
//      (RTF = decoder seconds / audio seconds; median of BENCH_REPEAT runs).
//
//   npx tsx bench/telephony.ts               (BENCH_SKIP_BUILD=1 skips the fresh build; BENCH_REPEAT=3)
// Results: printed, and written to bench/results/telephony-<time>.json.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeChannels } from '../src/audio/decode.js';
import { detectSpeech, vadParamsFrom } from '../src/audio/vad.js';
import { installedModels, TELEPHONY_MODEL, telephonyAdaptation, WIDEBAND_MODEL } from '../src/engine/models.js';
import { decodePcm, type PocketSphinxModel } from '../src/engine/pocketsphinx/decoder.js';
import { MAX_UNIT_SECONDS } from '../src/engine/pocketsphinx/engine.js';
import { devDataDir, loadReferences } from '../test/helpers/devData.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, '..');
const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 3));

function build(env: Record<string, string>): { seconds: number; status: number | null; tail: string } {
  const t0 = performance.now();
  const r = spawnSync('bash', [path.join(ROOT, 'scripts', 'build-telephony-model.sh')], { env: { ...process.env, ...env }, encoding: 'utf8' });
  return { seconds: (performance.now() - t0) / 1000, status: r.status, tail: r.stderr.trim().split('\n').pop() ?? '' };
}

function files(name: string): PocketSphinxModel {
  const info = installedModels().find((m) => m.name === name);
  if (!info?.files) throw new Error(`${name} is not installed: ${info?.reason ?? 'unknown'}`);
  return { ...info.files, sampleRate: info.sampleRate };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function main(): Promise<void> {
  const result: Record<string, unknown> = {
    machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}`,
    loadAverage: os.loadavg(),
    node: process.version,
  };

  // 1. Build time.
  if (process.env.BENCH_SKIP_BUILD !== '1') {
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-bench-tel-'));
    try {
      const cold = build({ SCRUBLINE_MODELS_DIR: fresh });
      const warm = build({ SCRUBLINE_MODELS_DIR: fresh });
      const hashFresh = JSON.parse(fs.readFileSync(path.join(fresh, 'telephony', 'en-us', 'manifest.json'), 'utf8')).inputsHash;
      const same = fs.existsSync(path.join(ROOT, 'models', 'telephony', 'en-us', 'mllr_matrix')) &&
        fs.readFileSync(path.join(fresh, 'telephony', 'en-us', 'mllr_matrix')).equals(fs.readFileSync(path.join(ROOT, 'models', 'telephony', 'en-us', 'mllr_matrix')));
      result.build = { coldSeconds: cold.seconds, cachedSeconds: warm.seconds, status: cold.status, log: cold.tail, inputsHash: hashFresh, sameTransformAsInstalled: same };
      console.log(`adaptation build: ${cold.seconds.toFixed(1)} s from nothing, ${warm.seconds.toFixed(2)} s cached (${cold.tail.replace(/\x1b\[[0-9;]*m/g, '')})`);
      console.log(`  transform identical to the installed one: ${same} (the installed one may use the npm dictionary; identical when inputs match)`);
    } finally {
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  }
  const cached = build({});
  console.log(`adaptation build (installed models dir, cached): ${cached.seconds.toFixed(2)} s`);
  const adaptation = telephonyAdaptation();
  result.adaptation = adaptation;

  // 2. Decode RTF with and without the transform, same 8 kHz audio.
  const refs = loadReferences();
  if (!refs) {
    console.error(`no dev data at ${devDataDir()}: decode speed not measured`);
  } else if (adaptation.state !== 'built') {
    console.error(`the transform is not built (${adaptation.reason}): decode speed not measured`);
  } else {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-bench-tel-8k-'));
    try {
      const pcm: { samples: Int16Array; segments: { start: number; end: number }[] }[] = [];
      let audioSeconds = 0;
      for (const file of [...new Set(refs.map((r) => r.path))]) {
        const out = path.join(tmp, `${path.basename(file, path.extname(file))}.wav`);
        execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', file, '-ar', '8000', '-c:a', 'pcm_mulaw', out]);
        const audio = await decodeChannels(out, { sampleRate: 16000 });
        for (const samples of audio.channels) {
          const vad = vadParamsFrom({});
          pcm.push({ samples, segments: detectSpeech(samples, 16000, { ...vad, uttmaxtime: Math.min(vad.uttmaxtime, MAX_UNIT_SECONDS) }) });
          audioSeconds += samples.length / 16000;
        }
      }
      const rtf: Record<string, number> = {};
      for (const name of [WIDEBAND_MODEL, TELEPHONY_MODEL]) {
        const model = files(name);
        const runs: number[] = [];
        for (let i = 0; i < REPEAT; i++) {
          let seconds = 0;
          for (const p of pcm) {
            const r = decodePcm(model, p.samples, p.segments);
            seconds += r.initSeconds + r.decodeSeconds;
          }
          runs.push(seconds / audioSeconds);
        }
        rtf[name] = median(runs);
      }
      result.decode = { audioSeconds, audio: '8 kHz mu-law dev files, upsampled to 16 kHz', repeat: REPEAT, rtf };
      console.log(`decode RTF on the same ${audioSeconds.toFixed(1)} s of 8 kHz mu-law audio (one thread, median of ${REPEAT}): ` +
        `${WIDEBAND_MODEL} ${rtf[WIDEBAND_MODEL].toFixed(3)}, ${TELEPHONY_MODEL} ${rtf[TELEPHONY_MODEL].toFixed(3)}`);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }
  console.log(`machine: ${result.machine}, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  const dir = path.join(here, 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `telephony-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, JSON.stringify(result, null, 2));
  console.log(`written to ${path.relative(process.cwd(), file)}`);
}

await main();
