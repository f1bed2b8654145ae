import { execFileSync } from 'node:child_process';
import { recognizeFile } from '../src/engine/recognize.js';
import { closeSharedPool } from '../src/engine/pool.js';
import { loadReferences } from '../test/helpers/devData.js';
import { wer } from '../test/helpers/wer.js';
const refs = loadReferences()!.filter((r) => !r.audio.includes('stereo'));
const gaps = [1.0, 2.0, 0.9, 1.5, 2.5, 1.2, 3.5, 1.8, 1.1];
let total = { err: 0, n: 0 };
for (const order of [0, 1]) {
  const list = order ? [...refs].reverse() : refs;
  const inputs = list.flatMap((r) => ['-i', r.path]);
  const filter = list.map((_, i) => `[${i}:a]aresample=16000,aformat=channel_layouts=mono,apad=pad_dur=${gaps[i % gaps.length]}[p${i}]`).join(';') + ';' + list.map((_, i) => `[p${i}]`).join('') + `concat=n=${list.length}:v=0:a=1[a]`;
  const file = `/tmp/cs/stream${order}.wav`;
  execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', ...inputs, '-filter_complex', filter, '-map', '[a]', file]);
  const t = await recognizeFile(file, { model: 'en-us:wideband' });
  const w = wer(list.map((r) => r.text).join(' '), t.channels[0].words.map((x) => x.word).join(' '));
  console.log(order, JSON.stringify(w));
}
await closeSharedPool();
