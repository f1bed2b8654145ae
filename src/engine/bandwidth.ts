// Telephone-band detection, for the automatic model choice: audio recorded at 8 kHz (or less) is telephone
// audio; so is audio at a higher rate whose energy stops near 4 kHz (a call upsampled before it reached us).
//
// The measure: over the loudest frames of the channel (speech, not silence), the share of spectral energy in
// 4.2-7.8 kHz against 0.3-3.4 kHz. Wideband speech puts a few percent there (fricatives alone put far more);
// band-limited speech upsampled from 8 kHz almost nothing (the resampler's stop band). See TELEPHONE_RATIO.
// Telephone audio re-encoded with noise (a 48 kHz Opus call) has more there, but as a flat floor under a cliff
// at 4 kHz: see isTelephoneShape.
import { TELEPHONY_MODEL, WIDEBAND_MODEL, installedRealModels, isAutoModel } from './models.js';

const FRAME = 512;
/**
 * Below this share of high-band energy, audio at 16 kHz or more is taken for telephone-band (whatever its shape; above
 * it, see isTelephoneShape). Measured on the dev
 * files (eval/telephony.ts): 8 kHz versions upsampled by the pipeline 1.8e-6 to 1.1e-5 (one quiet channel 5.8e-5);
 * wideband read speech 1.7e-3 to 6.4e-2; but jfk.wav, a band-limited 1961 broadcast at 16 kHz, 1.5e-5, and the
 * telephone model decodes it worse (36% against 18% WER). Hence a strict bound: only audio whose energy really
 * stops at 4 kHz (a call upsampled before it reached us) goes to the telephone model; a dull wideband recording
 * stays on the wideband model.
 */
export const TELEPHONE_RATIO = 1e-5;
/** Most frames analysed per channel (spread over the recording): enough for a stable figure, cheap. */
const MAX_FRAMES = 300;

export interface BandwidthAnalysis {
  /** High-band (4.2-7.8 kHz) energy over telephone-band (0.3-3.4 kHz) energy, loud frames only. */
  highBandRatio: number;
  /** Energy just under 4 kHz (3.5-3.9 kHz) over telephone-band energy: a telephone call keeps it, a dull recording not. */
  edgeRatio: number;
  frames: number;
}

/** The high-band share of 16-bit PCM at `sampleRate` (meaningful for sampleRate >= 16000). */
export function analyseBandwidth(samples: Int16Array, sampleRate: number): BandwidthAnalysis {
  const { low, high, edge, frames } = analyseBandwidthParts(samples, sampleRate);
  return { highBandRatio: low > 0 ? high / low : 0, edgeRatio: low > 0 ? edge / low : 0, frames };
}

interface BandParts {
  low: number;
  high: number;
  edge: number;
  frames: number;
  /** Power per FFT bin summed over the frames analysed (bin width sampleRate / FRAME). */
  spectrum: Float64Array;
  binHz: number;
}

function analyseBandwidthParts(samples: Int16Array, sampleRate: number): BandParts {
  const hop = FRAME;
  const count = Math.floor(samples.length / hop) - 1;
  const spectrum = new Float64Array(FRAME / 2 + 1);
  if (count <= 0 || sampleRate < 16000) return { low: 0, high: 0, edge: 0, frames: 0, spectrum, binHz: sampleRate / FRAME };
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
  const [lo3, hi3] = [Math.ceil(3500 / binHz), Math.floor(3900 / binHz)];
  let low = 0;
  let high = 0;
  let edge = 0;
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
    for (let b = lo3; b <= hi3; b++) edge += re[b] * re[b] + im[b] * im[b];
    for (let b = 0; b <= FRAME / 2; b++) spectrum[b] += re[b] * re[b] + im[b] * im[b];
    frames++;
  }
  return { low, high, edge, frames, spectrum, binHz };
}

/** Mean power per bin of `spectrum` between `from` and `to` Hz. */
function bandPower(spectrum: Float64Array, binHz: number, from: number, to: number): number {
  const [lo, hi] = [Math.ceil(from / binHz), Math.min(spectrum.length - 1, Math.floor(to / binHz))];
  let sum = 0;
  for (let b = lo; b <= hi; b++) sum += spectrum[b];
  return hi >= lo ? sum / (hi - lo + 1) : 0;
}

export interface BandShape {
  /** dB from 3.0-3.4 kHz (the top of the telephone band) down to 4.4-5.0 kHz. */
  cliffDb: number;
  /** dB from 4.4-5.0 kHz down to 6.0-7.0 kHz: near 0 for a noise or codec floor, a steady fall for dull speech. */
  slopeDb: number;
}

/** The spectrum's shape around 4 kHz (see isTelephoneShape). */
export function bandShape(spectrum: Float64Array, binHz: number): BandShape {
  const edge = bandPower(spectrum, binHz, 3000, 3400);
  const above = bandPower(spectrum, binHz, 4400, 5000);
  const top = bandPower(spectrum, binHz, 6000, 7000);
  const db = (x: number, y: number) => (x > 0 && y > 0 ? 10 * Math.log10(x / y) : 0);
  return { cliffDb: db(edge, above), slopeDb: db(above, top) };
}

/** Below this high-band share a cliff and a floor may still make it telephone audio (wideband dev speech: >= 1.7e-3). */
export const FLOOR_RATIO = 1e-3;
/** The least drop across 4 kHz for telephone audio (wideband dev speech: 2-8 dB; band-limited, noise added: 20-40). */
export const CLIFF_DB = 15;
/**
 * The most fall over 4.4-7 kHz for a floor: line/codec noise floors -3 to +1 dB; a clean Opus floor 7-12 dB, under
 * a deeper cliff (33-38 dB); jfk.wav, a dull broadcast: 13 dB under a 29 dB cliff. Hence two bounds.
 */
export const FLOOR_SLOPE_DB = 6;
export const DEEP_CLIFF_DB = 31;
export const DEEP_CLIFF_SLOPE_DB = 10;
/**
 * A floor this flat (issue 31): line noise of a two-party call (white, -45 dBFS) re-encoded as 48 kHz Opus falls
 * only 11-14 dB at 4 kHz onto a floor within 1-2 dB of level, and the 15 dB cliff sent it to the wideband model. Speech
 * above 4 kHz slopes (dull broadcasts and low-passed read speech 12-28 dB; the dev files with a ratio under
 * FLOOR_RATIO all 12 dB or more), so a floor within 2.5 dB under a 10 dB cliff is noise under telephone speech.
 */
export const FLAT_CLIFF_DB = 10;
export const FLAT_FLOOR_SLOPE_DB = 2.5;

/**
 * Telephone audio re-encoded at a higher rate (a 48 kHz Opus call, a 16 kHz WAV with line or codec noise): little
 * energy above 4 kHz, a steep fall at 4 kHz, and above it a flat floor (noise, not speech). A dull wideband
 * recording (jfk.wav) has the fall but keeps sloping down: its energy above 4 kHz is still speech.
 */
export function isTelephoneShape(highBandRatio: number, shape: BandShape): boolean {
  if (highBandRatio >= FLOOR_RATIO) return false;
  const slope = Math.abs(shape.slopeDb);
  return (
    (shape.cliffDb >= CLIFF_DB && slope <= FLOOR_SLOPE_DB) ||
    (shape.cliffDb >= DEEP_CLIFF_DB && slope <= DEEP_CLIFF_SLOPE_DB) ||
    (shape.cliffDb >= FLAT_CLIFF_DB && slope <= FLAT_FLOOR_SLOPE_DB)
  );
}

export function analyseShape(samples: Int16Array, sampleRate: number): BandShape & { highBandRatio: number } {
  const p = analyseBandwidthParts(samples, sampleRate);
  return { ...bandShape(p.spectrum, p.binHz), highBandRatio: p.low > 0 ? p.high / p.low : 0 };
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
  if (requested && !isAutoModel(requested)) return { model: requested, reason: 'requested' };
  const installed = new Set(installedRealModels().map((m) => m.name));
  const fallback = installed.has(WIDEBAND_MODEL) ? WIDEBAND_MODEL : [...installed][0] ?? WIDEBAND_MODEL;
  let telephone: string | undefined;
  if (sourceSampleRate > 0 && sourceSampleRate <= 8000) {
    telephone = `recorded at ${sourceSampleRate} Hz`;
  } else {
    // Energy-weighted over the channels: a quiet second channel does not decide alone.
    const parts = channels.map((c) => analyseBandwidthParts(c, sampleRate)).filter((a) => a.frames > 0);
    const low = parts.reduce((n, p) => n + p.low, 0);
    const ratio = low > 0 ? parts.reduce((n, p) => n + p.high, 0) / low : Infinity;
    const spectrum = new Float64Array(FRAME / 2 + 1);
    for (const p of parts) p.spectrum.forEach((v, i) => (spectrum[i] += v));
    const shape = parts.length > 0 ? bandShape(spectrum, parts[0].binHz) : undefined;
    if (ratio < TELEPHONE_RATIO) telephone = `energy stops near 4 kHz (high-band ratio ${ratio.toExponential(1)})`;
    else if (shape && isTelephoneShape(ratio, shape)) {
      telephone = `energy falls ${shape.cliffDb.toFixed(0)} dB past 4 kHz onto a flat floor (high-band ratio ${ratio.toExponential(1)})`;
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
