// What a live stream costs on sherpa-onnx models, against batch decoding of the same audio, in the same run and
// thread (the decoders called directly, as a stream worker calls them, 100 ms chunks, no pacing): CPU seconds.
//
//   online        a generated streaming NeMo CTC model (sherpa/online.ts) vs the same model over the audio in one go
//   offline       the generated NeMo CTC model decoded per utterance with re-decoded partials
//                 (sherpa/segmentStream.ts) vs one batch decode of the whole audio
//   offline+ballast  the same with dense layers the runtime must compute (a model-sized share of work, same words)
//
// Audio: 12 utterances of 3-12 alternating tones with 1.5 s pauses (~64 s), which the models transcribe.
//   npx tsx bench/sherpa-stream.ts      (BENCH_REPEAT=5: median of repeats)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_VAD_PARAMS } from '../src/audio/vad.js';
import type { StreamStep } from '../src/engine/pocketsphinx/streamDecoder.js';
import { decodeSherpa } from '../src/engine/sherpa/decode.js';
import { inspectModelFolder, type SherpaModelSpec } from '../src/engine/sherpa/modelFolder.js';
import { SherpaStreamDecoder } from '../src/engine/sherpa/online.js';
import { SegmentStreamDecoder } from '../src/engine/sherpa/segmentStream.js';
import { writeTinyNemoCtcModel, writeTinyOnlineModel, writeToneSequence } from '../test/helpers/tinyOnnxModel.js';

const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 5));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-sherpa-stream-'));
try {
  const models: Record<string, SherpaModelSpec> = {
    online: inspectModelFolder(writeTinyOnlineModel(path.join(dir, 'online'))),
    offline: inspectModelFolder(writeTinyNemoCtcModel(path.join(dir, 'offline'))),
    'offline+ballast': inspectModelFolder(writeTinyNemoCtcModel(path.join(dir, 'ballast'), { ballast: { size: 512, layers: 4 } })),
  };
  const steps: ('hello' | 'world' | 's' | number)[] = [0.5];
  const names = ['hello', 'world', 's'] as const;
  for (let u = 0; u < 12; u++) {
    for (let t = 0; t < 3 + (u % 4) * 3; t++) steps.push(names[t % 3]);
    steps.push(1.5);
  }
  const { file } = writeToneSequence(path.join(dir, 'tones.wav'), steps);
  const buf = execFileSync('ffmpeg', ['-loglevel', 'error', '-i', file, '-f', 's16le', '-ac', '1', '-ar', '16000', '-'], { maxBuffer: 1 << 28 });
  const pcm = new Int16Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length));
  const seconds = pcm.length / 16000;

  const stream = (decoder: { accept(s: Int16Array): StreamStep; finish(): StreamStep }) => {
    let cpu = 0;
    let words = 0;
    const take = (s: StreamStep) => {
      cpu += s.decodeSeconds;
      words += s.finals.reduce((n, f) => n + f.words.length, 0);
    };
    for (let i = 0; i < pcm.length; i += 1600) take(decoder.accept(pcm.slice(i, i + 1600)));
    take(decoder.finish());
    return { cpu, words };
  };
  const batch = (name: string) => {
    const t0 = performance.now();
    const r = decodeSherpa(name, models[name], pcm, [{ start: 0, end: seconds }]);
    return { cpu: (performance.now() - t0) / 1000 - r.initSeconds, words: r.words.length };
  };
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  console.log(`audio ${seconds.toFixed(1)} s, ${REPEAT} repeats, ${os.availableParallelism()} cores (median CPU seconds)`);
  for (const name of Object.keys(models)) {
    batch(name); // load the recognizer once, outside the measure
    const s: number[] = [];
    const b: number[] = [];
    let words = { stream: 0, batch: 0 };
    for (let r = 0; r < REPEAT; r++) {
      const decoder = name === 'online' ? new SherpaStreamDecoder(name, models[name], DEFAULT_VAD_PARAMS) : new SegmentStreamDecoder(name, models[name], DEFAULT_VAD_PARAMS);
      const st = stream(decoder);
      const bt = batch(name);
      s.push(st.cpu);
      b.push(bt.cpu);
      words = { stream: st.words, batch: bt.words };
    }
    console.log(
      `${name.padEnd(16)} stream ${median(s).toFixed(3)} s (RTF ${(median(s) / seconds).toFixed(4)})  batch ${median(b).toFixed(3)} s  ratio ${(median(s) / median(b)).toFixed(2)}  words stream/batch ${words.stream}/${words.batch}`,
    );
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
