// Telephone-band detection, for the automatic model choice: audio recorded at 8 kHz (or less) is telephone
// audio; so is audio at a higher rate whose energy stops near 4 kHz (a call upsampled before it reached us).
//
// The measure: over the loudest frames of the channel (speech, not silence), the share of spectral energy in
// 4.2-7.8 kHz against 0.3-3.4 kHz. Wideband speech puts a few percent there (fricatives alone put far more);
// band-limited speech upsampled from 8 kHz almost nothing (the resampler's stop band). See TELEPHONE_RATIO.
import { AUTO_MODEL, TELEPHONY_MODEL, WIDEBAND_MODEL, installedModels } from './models.js';

const FRAME = 512;
/** Below this share of high-band energy, audio at 16 kHz is telephone-band (measured: eval/telephony.ts). */
export const TELEPHONE_RATIO = 0.002;
/** Most frames analysed per channel (spread over the recording): enough for a stable figure, cheap. */
const MAX_FRAMES = 300;

export interface BandwidthAnalysis {
  /** High-band (4.2-7.8 kHz) energy over telephone-band (0.3-3.4 kHz) energy, loud frames only. */
  highBandRatio: number;
  frames: number;
}

/** The high-band share of 16-bit PCM at `sampleRate` (meaningful for sampleRate >= 16000). */
export function analyseBandwidth(samples: Int16Array, sampleRate: number): BandwidthAnalysis {
  const hop = FRAME;
  const count = Math.floor(samples.length / hop) - 1;
  if (count <= 0 || sampleRate < 16000) return { highBandRatio: 0, frames: 0 };
  // Frame energies; keep the loudest third (speech), then at most MAX_FRAMES of them spread evenly.
  const energies: { at: number; e: number }[] = [];
  for (let i = 0; i < count; i++) {
    let e = 0;
    for (let j = i * hop, end = j + FRAME; j < end; j++) e += samples[j] * samples[j];
    energies.push({ at: i * hop, e });
  }
  const loud = [...energies].sort((a, b) => b.e - a.e).slice(0, Math.max(1, Math.ceil(count / 3)));
  loud.sort((a, b) => a.at - b.at);
  const step = Math.max(1, loud.length / MAX_FRAMES);
  const binHz = sampleRate / FRAME;
  const [lo1, hi1] = [Math.ceil(300 / binHz), Math.floor(3400 / binHz)];
  const [lo2, hi2] = [Math.ceil(4200 / binHz), Math.min(FRAME / 2, Math.floor(7800 / binHz))];
  const window = hann(FRAME);
  const re = new Float64Array(FRAME);
  const im = new Float64Array(FRAME);
  let low = 0;
  let high = 0;
  let frames = 0;
  for (let k = 0; k < loud.length; k += step) {
    const at = loud[Math.floor(k)].at;
    for (let j = 0; j < FRAME; j++) {
      re[j] = samples[at + j] * window[j];
      im[j] = 0;
    }
    fft(re, im);
    for (let b = lo1; b <= hi1; b++) low += re[b] * re[b] + im[b] * im[b];
    for (let b = lo2; b <= hi2; b++) high += re[b] * re[b] + im[b] * im[b];
    frames++;
  }
  return { highBandRatio: low > 0 ? high / low : 0, frames };
}

export interface ModelChoice {
  model: string;
  reason: string;
}

/**
 * The model for `model` as asked ('auto' or none: by the audio). `sourceSampleRate` is the recording's own rate;
 * `channels` its PCM at `sampleRate` (16 kHz).
 */
export function chooseModelForAudio(
  requested: string | undefined,
  sourceSampleRate: number,
  channels: Int16Array[],
  sampleRate: number,
): ModelChoice {
  if (requested && requested !== AUTO_MODEL) return { model: requested, reason: 'requested' };
  const installed = new Set(installedModels().map((m) => m.name));
  const fallback = installed.has(WIDEBAND_MODEL) ? WIDEBAND_MODEL : [...installed][0] ?? WIDEBAND_MODEL;
  let telephone: string | undefined;
  if (sourceSampleRate > 0 && sourceSampleRate <= 8000) {
    telephone = `recorded at ${sourceSampleRate} Hz`;
  } else {
    const ratios = channels.map((c) => analyseBandwidth(c, sampleRate)).filter((a) => a.frames > 0);
    if (ratios.length > 0 && ratios.every((a) => a.highBandRatio < TELEPHONE_RATIO)) {
      telephone = `energy stops near 4 kHz (high-band ratio ${Math.max(...ratios.map((a) => a.highBandRatio)).toExponential(1)})`;
    }
  }
  if (!telephone) return { model: fallback, reason: 'wideband audio' };
  if (!installed.has(TELEPHONY_MODEL)) return { model: fallback, reason: `telephone-band audio (${telephone}), but ${TELEPHONY_MODEL} is not installed` };
  return { model: TELEPHONY_MODEL, reason: `telephone-band audio (${telephone})` };
}

function hann(n: number): Float64Array {
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) w[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (n - 1));
  return w;
}

/** In-place iterative radix-2 FFT (length a power of two). */
function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j], re[i]];
      [im[i], im[j]] = [im[j], im[i]];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    const wr = Math.cos(ang);
    const wi = Math.sin(ang);
    for (let i = 0; i < n; i += len) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < len / 2; k++) {
        const a = i + k;
        const b = a + len / 2;
        const tr = re[b] * cr - im[b] * ci;
        const ti = re[b] * ci + im[b] * cr;
        re[b] = re[a] - tr;
        im[b] = im[a] - ti;
        re[a] += tr;
        im[a] += ti;
        const nr = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = nr;
      }
    }
  }
}
