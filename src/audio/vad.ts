// Energy-based voice activity segmentation driven by the engine parameters (V-Blaze's meanings):
//   activitylevel   a 10 ms frame whose RMS amplitude (16-bit units, DC removed) reaches this is active
//   uttmaxsilence   this much silence (ms) ends an utterance; shorter pauses stay inside it
//   uttminactivity  an utterance spans at least this much (ms, first to last active frame), else it is noise
//   uttpadding      this much audio (ms) is kept on each side of the speech
//   uttmaxtime      no utterance is longer than this (s): a longer one is cut at its quietest moment
// Pure: samples in, segments (seconds) out.
import type { SpeechSegment } from '../transcript/types.js';

export interface VadParams {
  activitylevel: number;
  uttmaxsilence: number;
  uttminactivity: number;
  uttpadding: number;
  uttmaxtime: number;
}

export const DEFAULT_VAD_PARAMS: VadParams = {
  activitylevel: 175,
  uttmaxsilence: 800,
  uttminactivity: 500,
  uttpadding: 300,
  uttmaxtime: 60,
};

/** Frame length of the energy measure. */
export const VAD_FRAME_MS = 10;

/** VAD settings from engine parameters (anything missing or not a usable number takes its default). */
export function vadParamsFrom(params: Partial<Record<keyof VadParams, unknown>> & { vadparams?: Record<string, unknown> }): VadParams {
  const pick = (name: keyof VadParams, min: number): number => {
    const v = params[name] ?? params.vadparams?.[name];
    const n = typeof v === 'string' ? Number(v) : v;
    return typeof n === 'number' && Number.isFinite(n) && n >= min ? n : DEFAULT_VAD_PARAMS[name];
  };
  return {
    activitylevel: pick('activitylevel', 0),
    uttmaxsilence: pick('uttmaxsilence', 0),
    uttminactivity: pick('uttminactivity', 0),
    uttpadding: pick('uttpadding', 0),
    uttmaxtime: pick('uttmaxtime', 1),
  };
}

/** RMS amplitude (DC removed) of each frame of `frameMs`. */
export function frameEnergies(samples: Int16Array, sampleRate: number, frameMs = VAD_FRAME_MS): Float32Array {
  const frameLen = Math.max(1, Math.round((sampleRate * frameMs) / 1000));
  const n = Math.ceil(samples.length / frameLen);
  const out = new Float32Array(n);
  for (let f = 0; f < n; f++) {
    const start = f * frameLen;
    const end = Math.min(samples.length, start + frameLen);
    let sum = 0;
    let sumSq = 0;
    for (let i = start; i < end; i++) {
      const x = samples[i];
      sum += x;
      sumSq += x * x;
    }
    const len = end - start;
    const mean = sum / len;
    out[f] = Math.sqrt(Math.max(0, sumSq / len - mean * mean));
  }
  return out;
}

/** Speech segments of one channel, in seconds from its start, sorted and not overlapping. */
export function detectSpeech(samples: Int16Array, sampleRate: number, params: Partial<VadParams> = {}): SpeechSegment[] {
  const p = { ...DEFAULT_VAD_PARAMS, ...params };
  if (samples.length === 0) return [];
  const energy = frameEnergies(samples, sampleRate);
  const frames = energy.length;
  const frameSec = VAD_FRAME_MS / 1000;
  const maxGap = Math.round(p.uttmaxsilence / VAD_FRAME_MS);
  const minSpan = Math.round(p.uttminactivity / VAD_FRAME_MS);
  const pad = Math.round(p.uttpadding / VAD_FRAME_MS);
  const maxLen = Math.max(1, Math.round((p.uttmaxtime * 1000) / VAD_FRAME_MS));

  // 1. Runs of active frames joined across pauses shorter than uttmaxsilence: [first, last] active frame.
  const spans: [number, number][] = [];
  let first = -1;
  let last = -1;
  for (let f = 0; f < frames; f++) {
    if (energy[f] < p.activitylevel) continue;
    if (first >= 0 && f - last - 1 < maxGap) last = f;
    else {
      if (first >= 0) spans.push([first, last]);
      first = last = f;
    }
  }
  if (first >= 0) spans.push([first, last]);

  // 2. Too short to be an utterance: noise (a click, a breath).
  const kept = spans.filter(([a, b]) => b - a + 1 >= minSpan);

  // 3. Padding, then merge what now touches.
  const padded: [number, number][] = [];
  for (const [a, b] of kept) {
    const s = Math.max(0, a - pad);
    const e = Math.min(frames, b + 1 + pad); // exclusive
    const prev = padded[padded.length - 1];
    if (prev && s <= prev[1]) prev[1] = Math.max(prev[1], e);
    else padded.push([s, e]);
  }

  // 4. Longer than uttmaxtime: cut at the quietest moment of its second half, repeatedly.
  const out: SpeechSegment[] = [];
  for (const [s0, e] of padded) {
    let s = s0;
    while (e - s > maxLen) {
      const cut = quietestFrame(energy, s + Math.floor(maxLen / 2), s + maxLen);
      out.push(toSeconds(s, cut, frameSec, samples.length / sampleRate));
      s = cut;
    }
    out.push(toSeconds(s, e, frameSec, samples.length / sampleRate));
  }
  return out;
}

function toSeconds(startFrame: number, endFrame: number, frameSec: number, total: number): SpeechSegment {
  return { start: round3(startFrame * frameSec), end: round3(Math.min(total, endFrame * frameSec)) };
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** The frame in [from, to) at the centre of the quietest 200 ms (a pause between words, when there is one). */
function quietestFrame(energy: Float32Array, from: number, to: number): number {
  const half = 10;
  let best = from;
  let bestSum = Infinity;
  for (let c = Math.max(from, 1); c < to; c++) {
    let sum = 0;
    const lo = Math.max(0, c - half);
    const hi = Math.min(energy.length, c + half);
    for (let f = lo; f < hi; f++) sum += energy[f];
    const mean = sum / (hi - lo);
    if (mean < bestSum) {
      bestSum = mean;
      best = c;
    }
  }
  return best;
}

/**
 * Groups segments into decode units of at most `maxUnitSeconds`: neighbours closer than `maxGapSeconds` are
 * decoded together, pause included (the recognizer does better on longer stretches with their context than on
 * clipped fragments). A segment longer than the unit stays whole (uttmaxtime already bounded it).
 */
export function groupSegments(segments: SpeechSegment[], maxUnitSeconds: number, maxGapSeconds = Infinity): SpeechSegment[] {
  const units: SpeechSegment[] = [];
  for (const seg of segments) {
    const prev = units[units.length - 1];
    if (prev && seg.end - prev.start <= maxUnitSeconds && seg.start - prev.end <= maxGapSeconds) prev.end = seg.end;
    else units.push({ ...seg });
  }
  return units;
}
