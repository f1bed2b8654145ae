// One sherpa-onnx decode on a pool worker: PCM of one channel and the stretches of it to recognize → words with
// times. A recognizer is created once per model per worker and kept (loading a model is the expensive part and
// an offline recognizer carries no state from one stream to the next), up to a few models per worker, least
// recently used dropped first; each stretch is a fresh stream. Models
// without token times get their words aligned by the bundled engine (pocketsphinx/align.ts).
//
// Synchronous and CPU-bound: call it from a worker thread (engine/pool.ts), never from the event loop.
import type { SpeechSegment, Word } from '../../transcript/types.js';
import { alignWords } from '../pocketsphinx/align.js';
import type { PocketSphinxModel } from '../pocketsphinx/decoder.js';
import { loadSherpaOnnx, type OfflineRecognizer } from './binding.js';
import { isOnlineFamily, type SherpaModelSpec } from './modelFolder.js';
import { decodeOnlineUnit, heldOnlineModels } from './online.js';
import { recognizerConfig, SHERPA_SAMPLE_RATE } from './recognizerConfig.js';
import { wordsFromTokens, wordsOfText, type TokenResult } from './words.js';

export interface SherpaDecodeResult {
  words: Word[];
  initSeconds: number;
  decodeSeconds: number;
  /** Words whose times came from alignment, and stretches whose words had to be spread by length. */
  alignedWords: number;
  spreadUnits: number;
}

/** Loaded recognizers of this worker, least recently used first. */
const recognizers = new Map<string, { model: string; recognizer: OfflineRecognizer }>();

/** Models one worker keeps loaded at once (SCRUBLINE_MODELS_PER_WORKER, default 2): the least recently used goes. */
function capacity(): number {
  const n = Number(process.env.SCRUBLINE_MODELS_PER_WORKER);
  return Number.isInteger(n) && n > 0 ? n : 2;
}

/** The models this worker holds now (names). */
export function heldModels(): string[] {
  return [...new Set([...[...recognizers.values()].map((r) => r.model), ...heldOnlineModels()])];
}

/** This worker's recognizer for the model (created on first use). */
function recognizerFor(model: string, spec: SherpaModelSpec): { recognizer: OfflineRecognizer; initSeconds: number } {
  // The whole spec (files and their total size): a model replaced under the same path loads afresh.
  const key = `${model} ${JSON.stringify(spec)}`;
  const existing = recognizers.get(key);
  if (existing) {
    recognizers.delete(key);
    recognizers.set(key, existing);
    return { recognizer: existing.recognizer, initSeconds: 0 };
  }
  while (recognizers.size >= capacity()) recognizers.delete(recognizers.keys().next().value!);
  const t0 = performance.now();
  const { OfflineRecognizer } = loadSherpaOnnx();
  const recognizer = new OfflineRecognizer(recognizerConfig(spec));
  recognizers.set(key, { model, recognizer });
  return { recognizer, initSeconds: (performance.now() - t0) / 1000 };
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

export function decodeSherpa(model: string, spec: SherpaModelSpec, pcm: Int16Array, units: SpeechSegment[], align?: PocketSphinxModel): SherpaDecodeResult {
  // A streaming model (the after-call job of a live stream on it, or any job asking it): the same units, each
  // decoded through its online recognizer in one go.
  if (isOnlineFamily(spec.family)) return decodeOnline(model, spec, pcm, units);
  const { recognizer, initSeconds } = recognizerFor(model, spec);
  const t0 = performance.now();
  const rate = SHERPA_SAMPLE_RATE;
  const words: Word[] = [];
  let alignedWords = 0;
  let spreadUnits = 0;
  for (const unit of units) {
    const from = Math.max(0, Math.round(unit.start * rate));
    const to = Math.min(pcm.length, Math.round(unit.end * rate));
    if (to - from < rate / 10) continue; // under 100 ms: nothing to recognize
    const stretch = pcm.subarray(from, to);
    const samples = new Float32Array(stretch.length);
    for (let i = 0; i < stretch.length; i++) samples[i] = stretch[i] / 32768;
    const stream = recognizer.createStream();
    stream.acceptWaveform({ samples, sampleRate: rate });
    recognizer.decode(stream);
    const result = recognizer.getResult(stream) as TokenResult;
    const offset = from / rate;
    let unitWords = wordsFromTokens(result, stretch.length / rate);
    if (!unitWords) {
      const text = wordsOfText(result.text);
      if (!align) throw Object.assign(new Error('this model gives no word times and the bundled engine is not installed to align them'), { permanent: true });
      const aligned = alignWords(align, stretch, text);
      alignedWords += aligned.aligned;
      if (aligned.spread) spreadUnits++;
      unitWords = aligned.words;
    }
    for (const w of unitWords) words.push({ ...w, start: round3(w.start + offset), end: round3(w.end + offset) });
  }
  return { words, initSeconds, decodeSeconds: (performance.now() - t0) / 1000, alignedWords, spreadUnits };
}

function decodeOnline(model: string, spec: SherpaModelSpec, pcm: Int16Array, units: SpeechSegment[]): SherpaDecodeResult {
  const t0 = performance.now();
  const rate = SHERPA_SAMPLE_RATE;
  const words: Word[] = [];
  let initSeconds = 0;
  for (const unit of units) {
    const from = Math.max(0, Math.round(unit.start * rate));
    const to = Math.min(pcm.length, Math.round(unit.end * rate));
    if (to - from < rate / 10) continue; // under 100 ms: nothing to recognize
    const decoded = decodeOnlineUnit(model, spec, pcm.subarray(from, to));
    initSeconds += decoded.initSeconds;
    const offset = from / rate;
    for (const w of decoded.words) words.push({ ...w, start: round3(w.start + offset), end: round3(w.end + offset) });
  }
  return { words, initSeconds, decodeSeconds: (performance.now() - t0) / 1000 - initSeconds, alignedWords: 0, spreadUnits: 0 };
}
