// DTMF (keypad tone) detection over 16-bit PCM at any sample rate, independent of speech recognition: what a
// caller types into an IVR payment must be found even when the recognizer hears nothing (or nonsense) there.
//
// The signal is cut into half-blocks of ~6.4 ms; each half-block gets the DFT sums at the 8 DTMF frequencies
// (Goertzel) and its energy. A window is two consecutive half-blocks (~12.8 ms, 102 samples at 8 kHz: the
// neighbouring row frequencies fall near the nulls of its response), so windows overlap by half and each sample
// is filtered once. A window holds a key when (the usual checks, with spandsp's / Q.24's limits):
//   - one row and one column tone each stand 8 dB above the other tones of their group,
//   - each of them is loud enough (per-tone level, default -40 dBFS),
//   - twist: the high (column) tone is at most 4 dB above and at most 8 dB below the low (row) one,
//   - the two tones carry most of the window's energy (speech and noise spread theirs),
//   - the window is steady: its two halves' energies are within 4 dB (a tone starting or ending mid-window,
//     or a speech onset, is not a key).
// A key press is a run of windows with the same key; runs of the same key separated by a dropout shorter than
// `minGap` are one press, and a press shorter than `minDuration` (default 40 ms) is dropped. Spans are
// reported conservatively (one hop beyond the windows that held the key on each side), so that the whole tone
// lies inside them.

export interface DtmfTone {
  /** The key: 0-9, *, #, A-D. */
  digit: string;
  /** Seconds from the start of the samples. */
  start: number;
  end: number;
}

export interface DtmfOptions {
  /** Shortest key press reported (s); default 0.04 (ITU-T Q.24 accepts 40 ms, rejects under 23 ms). */
  minDuration?: number;
  /** Two runs of the same key with a dropout shorter than this (s) are one press; default 0.02. */
  minGap?: number;
  /** Lowest level of each tone, dBFS of a sine's peak (default -40). */
  minLevelDb?: number;
  /** How far (dB) the low (row) tone may be above the high (column) one; default 8. */
  maxTwistDb?: number;
  /** How far (dB) the high (column) tone may be above the low (row) one; default 4. */
  maxReverseTwistDb?: number;
  /** How far (dB) each tone must stand above the other tones of its group; default 8. */
  minRelativePeakDb?: number;
  /** Share of the window's energy the two tones must carry; default 0.7. */
  minEnergyShare?: number;
  /** Largest energy ratio (dB) between a window's halves; default 4. */
  maxUnsteadyDb?: number;
  /** Interleaved input: samples per frame (default 1) ... */
  stride?: number;
  /** ... and the channel to read (default 0). */
  offset?: number;
}

export const DTMF_ROWS = [697, 770, 852, 941] as const;
export const DTMF_COLUMNS = [1209, 1336, 1477, 1633] as const;
export const DTMF_KEYS = ['1', '2', '3', 'A', '4', '5', '6', 'B', '7', '8', '9', 'C', '*', '0', '#', 'D'] as const;

/** The row and column frequencies (Hz) of a key. */
export function dtmfFrequencies(digit: string): [number, number] {
  const index = DTMF_KEYS.indexOf(digit.toUpperCase() as (typeof DTMF_KEYS)[number]);
  if (index < 0) throw new RangeError(`not a DTMF key: ${digit}`);
  return [DTMF_ROWS[index >> 2], DTMF_COLUMNS[index & 3]];
}

const FREQUENCIES = [...DTMF_ROWS, ...DTMF_COLUMNS];
const db = (value: number) => 10 ** (value / 10);

/** The key held in each window (-1: none), windows of two half-blocks, one half-block apart. */
function classifyWindows(samples: Int16Array, sampleRate: number, options: DtmfOptions, half: number): Int8Array {
  const stride = options.stride ?? 1;
  const offset = options.offset ?? 0;
  const frames = Math.floor((samples.length - offset + stride - 1) / stride);
  const halves = Math.floor(frames / half);
  const windows = Math.max(0, halves - 1);
  const keys = new Int8Array(windows).fill(-1);
  if (windows === 0) return keys;
  const n = 2 * half;

  const coefficient = new Float64Array(8);
  const cosW = new Float64Array(8);
  const sinW = new Float64Array(8);
  // e^{-jωH}: the phase that brings the second half's DFT sums onto the first half's origin.
  const cosShift = new Float64Array(8);
  const sinShift = new Float64Array(8);
  // e^{-jω(H-1)}: Goertzel's state after H samples, brought back to the half-block's first sample.
  const cosPhase = new Float64Array(8);
  const sinPhase = new Float64Array(8);
  for (let f = 0; f < 8; f++) {
    const w = (2 * Math.PI * FREQUENCIES[f]) / sampleRate;
    coefficient[f] = 2 * Math.cos(w);
    cosW[f] = Math.cos(w);
    sinW[f] = Math.sin(w);
    cosShift[f] = Math.cos(w * half);
    sinShift[f] = -Math.sin(w * half);
    cosPhase[f] = Math.cos(w * (half - 1));
    sinPhase[f] = -Math.sin(w * (half - 1));
  }
  // Per-tone level threshold as a window power (a sine of peak A over n samples has power A²n/2).
  const minAmplitude = 32768 * 10 ** ((options.minLevelDb ?? -40) / 20);
  const minPower = (minAmplitude * minAmplitude * n) / 2;
  const twist = db(options.maxTwistDb ?? 8);
  const reverseTwist = db(options.maxReverseTwistDb ?? 4);
  const relativePeak = db(options.minRelativePeakDb ?? 8);
  const energyShare = options.minEnergyShare ?? 0.7;
  const unsteady = db(options.maxUnsteadyDb ?? 4);

  // Previous half-block's DFT sums (real, imaginary) and energy.
  const prevRe = new Float64Array(8);
  const prevIm = new Float64Array(8);
  let prevEnergy = 0;
  const re = new Float64Array(8);
  const im = new Float64Array(8);
  const power = new Float64Array(8);
  const s1 = new Float64Array(8);
  const s2 = new Float64Array(8);
  const c0 = coefficient[0], c1 = coefficient[1], c2 = coefficient[2], c3 = coefficient[3];
  const c4 = coefficient[4], c5 = coefficient[5], c6 = coefficient[6], c7 = coefficient[7];

  for (let h = 0; h < halves; h++) {
    // Goertzel over one half-block, the 8 filters unrolled.
    let a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
    let b0 = 0, b1 = 0, b2 = 0, b3 = 0, b4 = 0, b5 = 0, b6 = 0, b7 = 0;
    let energy = 0;
    let at = offset + h * half * stride;
    for (let i = 0; i < half; i++, at += stride) {
      const x = samples[at];
      energy += x * x;
      let s = x + c0 * a0 - b0; b0 = a0; a0 = s;
      s = x + c1 * a1 - b1; b1 = a1; a1 = s;
      s = x + c2 * a2 - b2; b2 = a2; a2 = s;
      s = x + c3 * a3 - b3; b3 = a3; a3 = s;
      s = x + c4 * a4 - b4; b4 = a4; a4 = s;
      s = x + c5 * a5 - b5; b5 = a5; a5 = s;
      s = x + c6 * a6 - b6; b6 = a6; a6 = s;
      s = x + c7 * a7 - b7; b7 = a7; a7 = s;
    }
    s1[0] = a0; s1[1] = a1; s1[2] = a2; s1[3] = a3; s1[4] = a4; s1[5] = a5; s1[6] = a6; s1[7] = a7;
    s2[0] = b0; s2[1] = b1; s2[2] = b2; s2[3] = b3; s2[4] = b4; s2[5] = b5; s2[6] = b6; s2[7] = b7;
    for (let f = 0; f < 8; f++) {
      // Σ x[k] e^{-jωk} = e^{-jω(H-1)} (s1 - e^{-jω} s2).
      const yr = s1[f] - cosW[f] * s2[f];
      const yi = sinW[f] * s2[f];
      const pr = cosPhase[f];
      const pi = sinPhase[f];
      const cr = yr * pr - yi * pi;
      const ci = yr * pi + yi * pr;
      if (h > 0) {
        // The window (previous half, this half): first + e^{-jωH} · second.
        const wr = prevRe[f] + cosShift[f] * cr - sinShift[f] * ci;
        const wi = prevIm[f] + cosShift[f] * ci + sinShift[f] * cr;
        power[f] = (2 * (wr * wr + wi * wi)) / n;
      }
      re[f] = cr;
      im[f] = ci;
    }
    if (h > 0) keys[h - 1] = decide(power, prevEnergy, energy);
    prevRe.set(re);
    prevIm.set(im);
    prevEnergy = energy;
  }
  return keys;

  function decide(p: Float64Array, e1: number, e2: number): number {
    const total = e1 + e2;
    if (total <= 0) return -1;
    if (e1 > e2 * unsteady || e2 > e1 * unsteady) return -1;
    let row = 0;
    for (let f = 1; f < 4; f++) if (p[f] > p[row]) row = f;
    let col = 4;
    for (let f = 5; f < 8; f++) if (p[f] > p[col]) col = f;
    const pr = p[row];
    const pc = p[col];
    if (pr < minPower || pc < minPower) return -1;
    if (pr > pc * twist || pc > pr * reverseTwist) return -1;
    if (pr + pc < energyShare * total) return -1;
    for (let f = 0; f < 4; f++) if (f !== row && p[f] * relativePeak > pr) return -1;
    for (let f = 4; f < 8; f++) if (f !== col && p[f] * relativePeak > pc) return -1;
    return row * 4 + (col - 4);
  }
}

/**
 * The key presses in `samples` (mono, or one channel of interleaved frames with `stride`/`offset`), in order.
 * Plain computation, no I/O; about 8 multiply-adds per sample.
 */
export function detectDtmf(samples: Int16Array, sampleRate: number, options: DtmfOptions = {}): DtmfTone[] {
  if (!(sampleRate >= 4000)) throw new RangeError(`DTMF detection needs a sample rate of at least 4000 Hz (got ${sampleRate})`);
  const half = Math.max(1, Math.round(sampleRate * 0.0064));
  const keys = classifyWindows(samples, sampleRate, options, half);
  const hop = half / sampleRate;
  const windowSeconds = (2 * half) / sampleRate;
  const minDuration = options.minDuration ?? 0.04;
  const minGap = options.minGap ?? 0.02;
  const stride = options.stride ?? 1;
  const frames = Math.floor((samples.length - (options.offset ?? 0) + stride - 1) / stride);
  const duration = frames / sampleRate;
  // A tone of minDuration fully covers at least floor((minDuration - window) / hop) windows.
  const minWindows = Math.max(2, Math.floor((minDuration - windowSeconds) / hop + 1e-9));

  const tones: DtmfTone[] = [];
  let key = -1;
  let first = 0;
  let last = 0;
  const close = () => {
    if (key >= 0 && last - first + 1 >= minWindows) {
      tones.push({
        digit: DTMF_KEYS[key],
        start: round(Math.max(0, (first - 1) * hop)),
        end: round(Math.min(duration, (last + 1) * hop + windowSeconds)),
      });
    }
    key = -1;
  };
  for (let w = 0; w < keys.length; w++) {
    const k = keys[w];
    if (k < 0) continue;
    // Gap between the last window that held the key and this one.
    const gap = (w - last - 2) * hop;
    if (k === key && gap < minGap) {
      last = w;
      continue;
    }
    close();
    key = k;
    first = w;
    last = w;
  }
  close();
  return tones;
}

const round = (t: number) => Math.round(t * 1e5) / 1e5;
