// One PocketSphinx decode: PCM of one channel and the stretches of it to recognize → words with times (seconds
// from the start of the PCM) and confidences. A FRESH decoder is made for every call, because decoder state
// (cepstral mean, search) carried from one recording into the next decodes the second much worse (STACK.md);
// within a call the stretches of one channel share the decoder, each as one utterance.
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
  checkModelFiles(model);
  const config = lib.parseConfig(decoderArgs(model));
  let decoder: Pointer;
  try {
    decoder = lib.init(config);
  } finally {
    // ps_init retains the configuration; this drops our reference to it.
    lib.freeConfig(config);
  }
  const t1 = performance.now();
  const words: Word[] = [];
  try {
    const stretches = units ?? [{ start: 0, end: pcm.length / model.sampleRate }];
    for (const unit of stretches) {
      const from = Math.max(0, Math.round(unit.start * model.sampleRate));
      const to = Math.min(pcm.length, Math.round(unit.end * model.sampleRate));
      if (to - from < model.sampleRate / 10) continue; // under 100 ms: nothing to recognize
      words.push(...decodeUtterance(lib, decoder, pcm.subarray(from, to), from / model.sampleRate, model.sampleRate));
    }
  } finally {
    lib.free(decoder);
  }
  const t2 = performance.now();
  return { words, initSeconds: (t1 - t0) / 1000, decodeSeconds: (t2 - t1) / 1000 };
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
