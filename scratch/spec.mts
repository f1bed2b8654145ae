import { decodeChannels } from '../src/audio/decode.js';
import * as bw from '../src/engine/bandwidth.js';
const files = process.argv.slice(2);
for (const f of files) {
  const a = await decodeChannels(f, { sampleRate: 16000 });
  const p = (bw as any).analyseParts(a.channels[0], 16000);
  const out: string[] = [];
  for (let hz = 2000; hz < 7000; hz += 250) {
    let s = 0; let n = 0;
    for (let b = Math.ceil(hz / p.binHz); b < (hz + 250) / p.binHz; b++) { s += p.spectrum[b]; n++; }
    out.push((10 * Math.log10(s / n)).toFixed(0));
  }
  console.log(f.split('/').pop()!.padEnd(22), out.join(' '));
}
