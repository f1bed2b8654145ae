// sherpa-onnx engine adapter against sherpa-onnx called directly, on the same audio with the same model in the
// same run. Two generated NeMo-CTC models (no real weights can be downloaded here): `tiny` (a 4-token linear
// layer: what is measured is almost all adapter and I/O) and `ballast` (the same plus dense layers the runtime
// must compute, for a model-sized share of work; same output). Audio: a tone sequence the models transcribe
// ("hello world hellos ..."), BENCH_AUDIO_SECONDS long (default 300), mono 16 kHz.
//
//   direct-stream    ffmpeg → Float32 PCM, one OfflineRecognizer, the whole file as one stream (one thread)
//   direct-segments  the same PCM cut by the engine's own voice-activity step, each segment a stream (one thread)
//   adapter          recognizeFile(model): probe + ffmpeg + VAD + worker pool (cores in parallel) + words
// The recognizer's load is timed apart (the adapter loads once per worker, then keeps it).
//
//   npx tsx bench/sherpa.ts            (BENCH_REPEAT=3: median of repeats)
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closeSharedPool, defaultPoolSize } from '../src/engine/pool.js';
import { recognizeFile } from '../src/engine/recognize.js';
import type { OfflineRecognizer, SherpaOnnx } from '../src/engine/sherpa/binding.js';
import { addModel } from '../src/engine/sherpa/manage.js';
import { inspectModelFolder } from '../src/engine/sherpa/modelFolder.js';
import { recognizerConfig } from '../src/engine/sherpa/recognizerConfig.js';
import { speechBatches } from '../src/engine/speechBatches.js';
import { writeTinyNemoCtcModel, writeToneSequence } from '../test/helpers/tinyOnnxModel.js';

const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 3));
const SECONDS = Number(process.env.BENCH_AUDIO_SECONDS ?? 300);
const sherpa = createRequire(import.meta.url)('sherpa-onnx-node') as SherpaOnnx;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function timed<T>(fn: () => Promise<T> | T): Promise<{ seconds: number; result: T }> {
  const runs: number[] = [];
  let result!: T;
  for (let i = 0; i < REPEAT; i++) {
    const t0 = performance.now();
    result = await fn();
    runs.push((performance.now() - t0) / 1000);
  }
  return { seconds: median(runs), result };
}

function decodeDirect(recognizer: OfflineRecognizer, samples: Float32Array): string {
  const stream = recognizer.createStream();
  stream.acceptWaveform({ samples, sampleRate: 16000 });
  recognizer.decode(stream);
  return recognizer.getResult(stream).text;
}

function pcmOf(file: string): { f32: Float32Array; i16: Int16Array } {
  const raw = execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-i', file, '-ac', '1', '-ar', '16000', '-f', 's16le', '-'], { maxBuffer: 1 << 30 });
  const i16 = new Int16Array(raw.buffer, raw.byteOffset, raw.length / 2);
  const f32 = new Float32Array(i16.length);
  for (let i = 0; i < i16.length; i++) f32[i] = i16[i] / 32768;
  return { f32, i16 };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-bench-sherpa-'));
  process.env.SCRUBLINE_DATA_DIR = path.join(dir, 'data');
  delete process.env.SCRUBLINE_MODELS_DIR;
  try {
    const pattern: Parameters<typeof writeToneSequence>[1] = [0.4, 'hello', 0.3, 'world', 0.5, 'hello', 's', 0.6];
    const cycle = 0.4 + 0.5 + 0.3 + 0.5 + 0.5 + 0.5 + 0.5 + 0.6;
    const steps = Array.from({ length: Math.ceil(SECONDS / cycle) }, () => pattern).flat();
    const { file } = writeToneSequence(path.join(dir, 'tones.wav'), steps);
    const audioSeconds = Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], { encoding: 'utf8' }));
    console.log(`audio: ${audioSeconds.toFixed(1)} s mono 16 kHz tones; pool ${defaultPoolSize()} workers on ${os.availableParallelism()} cores; median of ${REPEAT}\n`);
    console.log('| model | load (s) | direct-stream (s) | direct-segments (s) | adapter (s) | adapter / direct-segments | adapter RTF | words agree |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const [name, ballast] of [['tiny', undefined], ['ballast', { size: 768, layers: 3 }]] as const) {
      const folder = writeTinyNemoCtcModel(path.join(dir, name), { ballast });
      await addModel(folder, { name: `en-us:${name}` });
      const spec = inspectModelFolder(folder);
      const t0 = performance.now();
      const recognizer = new sherpa.OfflineRecognizer(recognizerConfig(spec));
      const load = (performance.now() - t0) / 1000;

      const stream = await timed(() => decodeDirect(recognizer, pcmOf(file).f32));
      const segments = await timed(() => {
        const { i16 } = pcmOf(file);
        const { batches } = speechBatches(i16, 16000, {}, { maxUnitSeconds: 20, batchSeconds: 60 });
        const words: string[] = [];
        for (const b of batches) {
          for (const u of b.units) {
            const from = Math.round(u.start * 16000);
            const to = Math.round(u.end * 16000);
            const f = new Float32Array(to - from);
            for (let i = 0; i < f.length; i++) f[i] = b.samples[from + i] / 32768;
            words.push(...decodeDirect(recognizer, f).trim().split(/\s+/).filter(Boolean));
          }
        }
        return words;
      });
      await recognizeFile(file, { model: `en-us:${name}` }); // workers load the model once
      const adapter = await timed(() => recognizeFile(file, { model: `en-us:${name}` }));
      const adapterWords = adapter.result.channels[0].words.map((w) => w.word);
      const agree = adapterWords.join(' ') === segments.result.join(' ');
      console.log(
        `| ${name} | ${load.toFixed(3)} | ${stream.seconds.toFixed(3)} | ${segments.seconds.toFixed(3)} | ${adapter.seconds.toFixed(3)} | ×${(adapter.seconds / segments.seconds).toFixed(2)} | ${(adapter.seconds / audioSeconds).toFixed(4)} | ${agree ? `yes (${adapterWords.length})` : `NO (${adapterWords.length} vs ${segments.result.length})`} |`,
      );
    }
  } finally {
    await closeSharedPool();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
