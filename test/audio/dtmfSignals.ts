// Keypad tone signals for the DTMF tests: made in code (exact sample timings) or by ffmpeg as sums of sines
// (aevalsrc), the way a test recording of an IVR payment is put together.
import { execFileSync } from 'node:child_process';
import { dtmfFrequencies } from '../../src/audio/dtmf.js';
import { ffmpeg } from '../helpers/audio.js';

export interface KeySequence {
  keys: string;
  /** Seconds of tone per key. */
  on?: number;
  /** Seconds of silence after each key (and before the first). */
  off?: number;
  /** Peak of each of the two sines (16-bit scale). */
  amplitude?: number;
  /** dB of the column tone relative to the row tone. */
  twistDb?: number;
  /** Frequency error of both tones, percent. */
  offsetPercent?: number;
}

/** Where each key's tone is (s). */
export function keyTimes(seq: KeySequence): { key: string; start: number; end: number }[] {
  const on = seq.on ?? 0.07;
  const off = seq.off ?? 0.06;
  return [...seq.keys].map((key, i) => ({ key, start: off + i * (on + off), end: off + i * (on + off) + on }));
}

/** The sequence as mono 16-bit PCM (tones start and stop on sample boundaries; the values are clipped). */
export function keyPcm(seq: KeySequence, rate: number): Int16Array {
  const on = seq.on ?? 0.07;
  const off = seq.off ?? 0.06;
  const total = Math.round((off + seq.keys.length * (on + off)) * rate);
  const out = new Int16Array(total);
  const amp = seq.amplitude ?? 6000;
  const scale = 1 + (seq.offsetPercent ?? 0) / 100;
  const colAmp = amp * 10 ** ((seq.twistDb ?? 0) / 20);
  for (const { key, start } of keyTimes(seq)) {
    const [row, col] = dtmfFrequencies(key);
    const from = Math.round(start * rate);
    const n = Math.round(on * rate);
    for (let i = 0; i < n; i++) {
      const t = i / rate;
      const v = amp * Math.sin(2 * Math.PI * row * scale * t) + colAmp * Math.sin(2 * Math.PI * col * scale * t);
      out[from + i] = Math.max(-32768, Math.min(32767, Math.round(v)));
    }
  }
  return out;
}

/** A sine (or a sum of sines) as mono 16-bit PCM. */
export function sinePcm(frequencies: number[], rate: number, seconds: number, amplitude = 8000): Int16Array {
  const out = new Int16Array(Math.round(seconds * rate));
  for (let i = 0; i < out.length; i++) {
    let v = 0;
    for (const f of frequencies) v += amplitude * Math.sin((2 * Math.PI * f * i) / rate);
    out[i] = Math.max(-32768, Math.min(32767, Math.round(v)));
  }
  return out;
}

/** ffmpeg's aevalsrc expression of the sequence (each key a sum of its two sines, 0.25 of full scale each). */
export function keyExpression(seq: KeySequence): string {
  return keyTimes(seq)
    .map(({ key, start, end }) => {
      const [row, col] = dtmfFrequencies(key);
      return `between(t,${start.toFixed(4)},${end.toFixed(4)})*0.25*(sin(2*PI*${row}*t)+sin(2*PI*${col}*t))`;
    })
    .join('+');
}

/** Write the sequence with ffmpeg (aevalsrc) to `out`, at `rate`, with extra output arguments (codec). */
export function keyFile(seq: KeySequence, out: string, rate: number, codecArgs: string[] = ['-c:a', 'pcm_s16le']): string {
  const on = seq.on ?? 0.07;
  const off = seq.off ?? 0.06;
  const duration = off + seq.keys.length * (on + off);
  ffmpeg(['-f', 'lavfi', '-i', `aevalsrc=exprs='${keyExpression(seq)}':s=${rate}:d=${duration.toFixed(4)}`, ...codecArgs, out]);
  return out;
}

/** One channel of a file as 16-bit PCM at the file's own rate (or at `rate`). */
export function filePcm(file: string, channel = 0, rate?: number): Int16Array {
  const args = ['-v', 'error', '-i', file, '-af', `pan=mono|c0=c${channel}`, ...(rate ? ['-ar', String(rate)] : []), '-f', 's16le', '-acodec', 'pcm_s16le', '-'];
  const out = execFileSync('ffmpeg', args, { maxBuffer: 1 << 30 });
  return new Int16Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.length));
}
