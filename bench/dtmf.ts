// DTMF detector throughput on one hour of 8 kHz telephone audio (pink noise with a keypad entry every minute),
// against baselines in the same run: ffmpeg decoding the same mu-law file to PCM alone, and a bare loop that
// reads every sample once (sum of squares).
//
//   npx tsx bench/dtmf.ts            (BENCH_AUDIO_SECONDS=600 for a shorter run)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { detectDtmf, dtmfFrequencies } from '../src/audio/dtmf.js';

const seconds = Number(process.env.BENCH_AUDIO_SECONDS ?? 3600);
const rate = 8000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-bench-dtmf-'));
const ffmpeg = (args: string[], input?: Buffer) => execFileSync('ffmpeg', ['-hide_banner', '-v', 'error', '-y', ...args], { maxBuffer: 1 << 30, input });
const time = <T>(fn: () => T): [T, number] => {
  const t = performance.now();
  const value = fn();
  return [value, (performance.now() - t) / 1000];
};

// The recording: noise, plus a 16-key entry (70 ms tones, 60 ms pauses) at the start of every minute.
const raw = ffmpeg(['-f', 'lavfi', '-i', `anoisesrc=color=pink:sample_rate=${rate}:duration=${seconds}:amplitude=0.05`, '-f', 's16le', '-acodec', 'pcm_s16le', '-']);
const pcm = new Int16Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.length));
const keys = '4539148803436467';
let planted = 0;
for (let minute = 0; minute * 60 + 3 < seconds; minute++) {
  [...keys].forEach((key, i) => {
    const [row, col] = dtmfFrequencies(key);
    const from = Math.round((minute * 60 + 1 + i * 0.13) * rate);
    for (let n = 0; n < 0.07 * rate; n++) {
      const v = pcm[from + n] + 6000 * (Math.sin((2 * Math.PI * row * n) / rate) + Math.sin((2 * Math.PI * col * n) / rate));
      pcm[from + n] = Math.max(-32768, Math.min(32767, Math.round(v)));
    }
    planted++;
  });
}
const source = path.join(dir, 'hour-mulaw.wav');
ffmpeg(['-f', 's16le', '-ar', String(rate), '-ac', '1', '-i', 'pipe:0', '-c:a', 'pcm_mulaw', source], Buffer.from(pcm.buffer));

// Baseline 1: ffmpeg decoding the mu-law hour to 16-bit PCM (what the job does before detection).
const [decoded, decodeSeconds] = time(() => ffmpeg(['-i', source, '-f', 's16le', '-acodec', 'pcm_s16le', '-']));
const samples = new Int16Array(decoded.buffer.slice(decoded.byteOffset, decoded.byteOffset + decoded.length));
// Baseline 2: one bare pass over the samples.
const [energy, loopSeconds] = time(() => {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i] * samples[i];
  return sum;
});
detectDtmf(samples.subarray(0, rate * 10), rate); // warm up
const [tones, detectSeconds] = time(() => detectDtmf(samples, rate));
const found = tones.map((t) => t.digit).join('') === keys.repeat(planted / keys.length);
fs.rmSync(dir, { recursive: true, force: true });

const x = (s: number) => `${(seconds / s).toFixed(0)}x real time`;
console.log(`DTMF detection benchmark (${os.cpus()[0]?.model ?? 'cpu'}, ${os.availableParallelism()} cores, node ${process.version})`);
console.log(`${seconds} s of 8 kHz mu-law audio (${samples.length} samples), ${planted} keys planted:`);
console.log(`  ffmpeg decode alone      ${decodeSeconds.toFixed(3)} s  (${x(decodeSeconds)})`);
console.log(`  bare loop over samples   ${loopSeconds.toFixed(3)} s  (${x(loopSeconds)}; energy ${energy.toExponential(2)})`);
console.log(`  detectDtmf               ${detectSeconds.toFixed(3)} s  (${x(detectSeconds)}; x${(detectSeconds / decodeSeconds).toFixed(2)} the decode, x${(detectSeconds / loopSeconds).toFixed(1)} the bare loop)`);
console.log(`  keys found: ${tones.length} of ${planted}${found ? ', all in order' : ' — MISMATCH'}`);
