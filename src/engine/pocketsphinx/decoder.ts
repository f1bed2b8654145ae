// One PocketSphinx decode: PCM of one channel and the stretches of it to recognize → words with times (seconds
// from the start of the PCM) and confidences. Decoder state carried from one recording into the next decodes the
// second worse (STACK.md): the front end's noise statistics live for a "stream" (ps_start_stream), not for an
// utterance, and CMN is per utterance only because every stretch is given whole (full_utt). So each call either
// makes a fresh decoder (decodePcm) or takes one kept on this thread and starts a new stream on it (decodeWarm):
// the same words, times and confidences as a fresh decoder (test/engine/warmDecoder.test.ts), without loading the
// model again (~0.5 s of a 2-5 s prompt's ~1 s). Within a call the stretches share the decoder, each one utterance.
//
// Synchronous and CPU-bound: call it from a worker thread (engine/pool.ts), never from the event loop.
import fs from 'node:fs';
import path from 'node:path';
import type { SpeechSegment, Word } from '../../transcript/types.js';
import { loadPocketSphinx, type PocketSphinxLib, type Pointer } from './binding.js';

export interface PocketSphinxModel {
  /** Acoustic model directory (mdef, means, ...). */
  hmm: string;
  /** Language model (.lm.bin or ARPA). */
  lm: string;
  /** A JSGF grammar used instead of the language model (forced alignment: align.ts). */
  jsgf?: string;
  /** Pronunciation dictionary. */
  dict: string;
  /** Sample rate the acoustic model wants (16 kHz for en-us). */
  sampleRate: number;
  /** Optional MLLR transform (telephone-band adaptation). */
  mllr?: string;
  /** Further `-name value` decoder settings. */
  extraArgs?: string[];
}

export interface DecodeResult {
  words: Word[];
  /** Seconds spent creating the decoder (loading the model). */
  initSeconds: number;
  /** Seconds spent decoding. */
  decodeSeconds: number;
}

/** Frames per second of the front end (`-frate`, 100 by default: 10 ms frames). */
const FRATE = 100;

/**
 * Decoder settings: the defaults measured best (STACK.md); only what keeps times true. No `-logfn`: ps_init would
 * reopen the library's one process-wide log file, closing it under decoders running on other threads; the log is
 * switched off once per thread instead (binding.ts).
 */
export function decoderArgs(model: PocketSphinxModel): string[] {
  const args = [
    '-hmm', model.hmm,
    ...(model.jsgf ? ['-jsgf', model.jsgf] : ['-lm', model.lm]),
    '-dict', model.dict,
    '-samprate', String(model.sampleRate),
    '-frate', String(FRATE),
    '-remove_silence', 'no',
  ];
  if (model.mllr) args.push('-mllr', model.mllr);
  if (model.extraArgs) args.push(...model.extraArgs);
  return args;
}

/** Throws a permanent error naming the first file of the model that is missing. */
export function checkModelFiles(model: PocketSphinxModel): void {
  for (const [what, file] of [['acoustic model', path.join(model.hmm, 'mdef')], model.jsgf ? ['grammar', model.jsgf] : ['language model', model.lm], ['dictionary', model.dict]]) {
    if (!fs.existsSync(file)) throw Object.assign(new Error(`PocketSphinx ${what} not found: ${file}`), { permanent: true });
  }
}

/**
 * Recognizes each stretch of `pcm` in `units` (seconds; the whole PCM when none given) with a fresh decoder.
 * Words come back in time order, fillers dropped, alternate-pronunciation marks stripped.
 */
export function decodePcm(model: PocketSphinxModel, pcm: Int16Array, units?: SpeechSegment[]): DecodeResult {
  const lib = loadPocketSphinx();
  const t0 = performance.now();
  const decoder = createDecoder(lib, model);
  const t1 = performance.now();
  try {
    const words = decodeUnits(lib, decoder, model, pcm, units);
    return { words, initSeconds: (t1 - t0) / 1000, decodeSeconds: (performance.now() - t1) / 1000 };
  } finally {
    lib.free(decoder);
  }
}

/** Decoders kept on this thread by settings and model files, least recently used first. */
const kept = new Map<string, Pointer>();
/** Decoders this thread has made (model loads), for tests and stats. */
let created = 0;

/** This thread's decoders: how many were ever made and how many are kept now. */
export function decoderStats(): { created: number; kept: number } {
  return { created, kept: kept.size };
}

/** How many decoders a thread keeps (SCRUBLINE_WARM_DECODERS, default 2: wideband and telephony; 0: none). */
export function warmDecoderLimit(): number {
  const configured = Number(process.env.SCRUBLINE_WARM_DECODERS);
  return Number.isInteger(configured) && configured >= 0 ? configured : 2;
}

/**
 * decodePcm on a decoder kept on this thread for the same model (made on first use), reset as a fresh one is:
 * the same result. A decoder whose decode failed is freed, not kept.
 */
export function decodeWarm(model: PocketSphinxModel, pcm: Int16Array, units?: SpeechSegment[]): DecodeResult {
  const limit = warmDecoderLimit();
  if (limit === 0) return decodePcm(model, pcm, units);
  const lib = loadPocketSphinx();
  const t0 = performance.now();
  checkModelFiles(model);
  const key = decoderKey(model);
  let decoder = kept.get(key);
  kept.delete(key);
  decoder ??= createDecoder(lib, model);
  const t1 = performance.now();
  let words: Word[];
  try {
    if (lib.startStream(decoder) < 0) throw new Error('PocketSphinx could not start a stream');
    words = decodeUnits(lib, decoder, model, pcm, units);
  } catch (error) {
    lib.free(decoder);
    throw error;
  }
  kept.set(key, decoder);
  for (const [oldest, d] of kept) {
    if (kept.size <= limit) break;
    kept.delete(oldest);
    lib.free(d);
  }
  return { words, initSeconds: (t1 - t0) / 1000, decodeSeconds: (performance.now() - t1) / 1000 };
}

/** Frees this thread's kept decoders (tests; a thread that ends frees them with the process anyway). */
export function freeWarmDecoders(): void {
  if (kept.size === 0) return;
  const lib = loadPocketSphinx();
  for (const d of kept.values()) lib.free(d);
  kept.clear();
}

/** The settings and the model files as they are now: a rebuilt transform or a new language model is a new decoder. */
function decoderKey(model: PocketSphinxModel): string {
  const files = [path.join(model.hmm, 'mdef'), path.join(model.hmm, 'means'), model.jsgf ?? model.lm, model.dict, model.mllr].filter((f): f is string => !!f);
  const stamps = files.map((f) => {
    const st = fs.statSync(f, { throwIfNoEntry: false });
    return st ? `${st.size}:${st.mtimeMs}` : 'missing';
  });
  return JSON.stringify([decoderArgs(model), stamps]);
}

function createDecoder(lib: PocketSphinxLib, model: PocketSphinxModel): Pointer {
  checkModelFiles(model);
  const config = lib.parseConfig(decoderArgs(model));
  try {
    const decoder = lib.init(config);
    created++;
    return decoder;
  } finally {
    // ps_init retains the configuration; this drops our reference to it.
    lib.freeConfig(config);
  }
}

function decodeUnits(lib: PocketSphinxLib, decoder: Pointer, model: PocketSphinxModel, pcm: Int16Array, units?: SpeechSegment[]): Word[] {
  const words: Word[] = [];
  const stretches = units ?? [{ start: 0, end: pcm.length / model.sampleRate }];
  for (const unit of stretches) {
    const from = Math.max(0, Math.round(unit.start * model.sampleRate));
    const to = Math.min(pcm.length, Math.round(unit.end * model.sampleRate));
    if (to - from < model.sampleRate / 10) continue; // under 100 ms: nothing to recognize
    words.push(...decodeUtterance(lib, decoder, pcm.subarray(from, to), from / model.sampleRate, model.sampleRate));
  }
  return words;
}

function decodeUtterance(lib: PocketSphinxLib, decoder: Pointer, samples: Int16Array, offset: number, sampleRate: number): Word[] {
  if (lib.startUtt(decoder) < 0) throw new Error('PocketSphinx could not start an utterance');
  // The whole stretch at once (full_utt): cepstral mean normalization over the utterance, as in batch mode.
  if (lib.processRaw(decoder, samples, false, true) < 0) throw new Error('PocketSphinx failed to process audio');
  if (lib.endUtt(decoder) < 0) throw new Error('PocketSphinx could not end an utterance');
  return readSegments(lib, decoder, offset, offset + samples.length / sampleRate);
}

/**
 * The words of the utterance just ended (ps_seg_*): times in seconds from `offset` (where the utterance began),
 * none past `limit`; fillers dropped. Shared by batch decoding and live streams (streamDecoder.ts).
 */
export function readSegments(lib: PocketSphinxLib, decoder: Pointer, offset: number, limit: number): Word[] {
  const logmath = lib.getLogmath(decoder);
  const words: Word[] = [];
  // ps_seg_next frees the iterator when it returns NULL.
  for (let seg = lib.segIter(decoder); seg; seg = lib.segNext(seg)) {
    const word = cleanWord(lib.segWord(seg));
    if (!word) continue;
    const [sf, ef] = lib.segFrames(seg);
    const confidence = clamp01(lib.logmathExp(logmath, lib.segProb(seg)));
    const start = Math.min(limit, offset + sf / FRATE);
    const end = Math.min(limit, offset + (ef + 1) / FRATE);
    words.push({ word, start: round3(start), end: round3(Math.max(start, end)), confidence: round3(confidence) });
  }
  return words;
}

/** `word(2)` → `word`; fillers (`<s>`, `</s>`, `<sil>`, `[NOISE]`, `++NOISE++`) → null. */
export function cleanWord(raw: string | null | undefined): string | null {
  if (!raw) return null;
  if (/^(<.*>|\[.*\]|\+\+.*\+\+|\+.*\+)$/.test(raw)) return null;
  const word = raw.replace(/\(\d+\)$/, '').toLowerCase();
  return word.length > 0 ? word : null;
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
