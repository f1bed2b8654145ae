// The PocketSphinx engine: one channel of 16 kHz PCM → voice-activity segments (engine parameters) → each
// segment decoded as one utterance (segments longer than MAX_UNIT_SECONDS cut at their quietest moment) →
// words with times from the start of the channel.
//
// Measured on the dev files concatenated into 130 s streams with pauses (three orderings): one utterance per VAD
// segment of at most 15 s gave 15.9–16.9% WER, the whole stream as one utterance 22.7%; more padding (500 ms)
// was worse (18.0%). Short recordings are one segment anyway. See eval/wer.ts and the report in the README.
//
// The channel is cut into batches of segments (speechBatches.ts, at least BATCH_SECONDS of audio each) that
// decode on the worker pool in parallel, each on a decoder reset as a fresh one (decoder.ts decodeWarm).
import type { Word } from '../../transcript/types.js';
import { vadParamsFrom } from '../../audio/vad.js';
import { type ChannelAudio, type ChannelResult, type Engine, type EngineStream, type RecognizeOptions, reportingProgress, type StreamOptions } from '../engine.js';
import { engineStream, sharedStreamPool, type StreamPool } from '../streamPool.js';
import { listModels, type ModelInfo } from '../models.js';
import { sharedPool, type DecoderPool, type PoolResult } from '../pool.js';
import { monotonic, speechBatches } from '../speechBatches.js';
import type { PocketSphinxModel } from './decoder.js';
import { MAX_DELAY_RANGE } from '../stablePrefix.js';

/** Longest stretch decoded as one utterance (s); uttmaxtime lowers it further. */
export const MAX_UNIT_SECONDS = 15;
/** Least audio per pool task (s): enough that a decoder's start (~0.3 s) stays small against its work. */
export const BATCH_SECONDS = 60;

export class ModelNotInstalled extends Error {
  readonly permanent = true;
  constructor(message: string) {
    super(message);
    this.name = 'ModelNotInstalled';
  }
}

export interface PocketSphinxEngineOptions {
  /** The pool to decode on (default: the process's shared pool). */
  pool?: DecoderPool;
  /** Least audio per pool task, seconds. */
  batchSeconds?: number;
  /** The pool live streams decode on (default: the process's shared stream pool). */
  streamPool?: StreamPool;
}

export interface ChannelStats {
  /** Seconds the workers spent loading decoders and decoding (sum over tasks). */
  cpuSeconds: number;
  tasks: number;
  /** Highest worker-reported RSS (bytes). */
  peakRssBytes: number;
}

export class PocketSphinxEngine implements Engine {
  readonly name = 'pocketsphinx';
  private readonly ownPool?: DecoderPool;
  private readonly batchSeconds: number;
  private readonly ownStreamPool?: StreamPool;

  constructor(options: PocketSphinxEngineOptions = {}) {
    this.ownPool = options.pool;
    this.ownStreamPool = options.streamPool;
    this.batchSeconds = options.batchSeconds ?? BATCH_SECONDS;
  }

  /** The pool given, else the process's shared one as it is now (it may have been closed and made again). */
  private get pool(): DecoderPool {
    return this.ownPool ?? sharedPool();
  }

  models(): ModelInfo[] {
    return listModels().filter((m) => m.engine === this.name);
  }

  sampleRate(model: string): number {
    return this.resolve(model).sampleRate;
  }

  /** The files of an installed model, or a ModelNotInstalled error saying why not. */
  resolve(model: string): PocketSphinxModel {
    const info = this.models().find((m) => m.name === model);
    if (!info) {
      const known = this.models().map((m) => m.name).join(', ');
      throw new ModelNotInstalled(`Unknown model "${model}" for the ${this.name} engine (known: ${known})`);
    }
    if (!info.installed || !info.files) throw new ModelNotInstalled(`Model ${model} is not installed: ${info.reason ?? 'files missing'}`);
    return { ...info.files, sampleRate: info.sampleRate };
  }

  async recognize(audio: ChannelAudio, options: RecognizeOptions): Promise<ChannelResult & { stats: ChannelStats }> {
    const model = this.resolve(options.model);
    if (audio.sampleRate !== model.sampleRate) {
      throw new Error(`${options.model} needs ${model.sampleRate} Hz PCM, got ${audio.sampleRate} Hz`);
    }
    const { segments, batches } = speechBatches(audio.samples, audio.sampleRate, options.params as Record<string, unknown>, {
      maxUnitSeconds: MAX_UNIT_SECONDS,
      batchSeconds: this.batchSeconds,
    });
    const results = await Promise.all(reportingProgress(batches.map((b) => this.pool.run({ kind: 'pocketsphinx', model, ...b }, { signal: options.signal })), options.onProgress));
    const words: Word[] = results.flatMap((r) => r.words);
    return { channel: audio.channel, words: monotonic(words), segments, stats: stats(results) };
  }

  /**
   * A live channel decoded incrementally on a stream worker (pocketsphinx/streamDecoder.ts) with a fresh
   * decoder; utterances end by the VAD parameters of `options.params` (uttmaxsilence, uttmaxtime, ...).
   */
  stream(channel: number, options: StreamOptions): EngineStream {
    const model = this.resolve(options.model);
    const vad = vadParamsFrom(options.params as Record<string, unknown>);
    const finals = options.finals ?? defaultFinalPass();
    const deadlineMs = options.finalDeadlineMs ?? defaultFinalDeadlineMs();
    const maxDelay = options.maxDelay ?? defaultMaxDelay();
    const decoder = { engine: 'pocketsphinx' as const, model, vad, deadlineMs, maxDelay, ...(finals && { finals }), ...(options.partials === false && { partials: false }) };
    return engineStream(this.ownStreamPool ?? sharedStreamPool(), decoder, channel, model.sampleRate, options);
  }

  async close(): Promise<void> {
    // The shared pool outlives an engine; an engine given its own pool leaves closing it to its owner.
  }
}

function stats(results: PoolResult[]): ChannelStats {
  return {
    cpuSeconds: results.reduce((s, r) => s + r.initSeconds + r.decodeSeconds, 0),
    tasks: results.length,
    peakRssBytes: results.reduce((m, r) => Math.max(m, r.rssBytes), 0),
  };
}

/**
 * How live finals are made when the caller does not say (SCRUBLINE_STREAM_FINALS): `phrases` (the decoder's
 * default), `rescored` (the batch transcript's words, later finals) or `live`; anything else is the default.
 */
export function defaultFinalPass(): 'phrases' | 'rescored' | 'live' | undefined {
  const configured = process.env.SCRUBLINE_STREAM_FINALS;
  return configured === 'phrases' || configured === 'rescored' || configured === 'live' ? configured : undefined;
}

/**
 * How late a live final may be (ms after its utterance's end plus uttmaxsilence) before its phrase's pass is shed
 * and the incremental decoder's words stand (pocketsphinx/streamDecoder.ts): SCRUBLINE_STREAM_FINAL_DEADLINE_MS.
 * Shedding trades the final's words for its latency (most finals are shed at 300 ms on a small machine, and the
 * partials decoder's words are far worse), so it is an explicit low-latency mode: unset or `off`, finals always
 * come from the batch-quality pass, however late.
 */
export function defaultFinalDeadlineMs(): number {
  const configured = process.env.SCRUBLINE_STREAM_FINAL_DEADLINE_MS;
  if (configured === undefined || configured === '' || configured === 'off') return Infinity;
  const ms = Number(configured);
  return Number.isFinite(ms) && ms >= 0 ? ms : Infinity;
}

/**
 * A stream's maxDelay when it does not ask (s): SCRUBLINE_STREAM_MAX_DELAY within the documented range; unset (or
 * `off`), finals only at utterance ends. Not on by default: prefix passes cost 1.7-2x the CPU per stream and do
 * not hold 4 s at p95 even for one stream on 2 cores (bench/stream.ts, docs/streams.md "Capacity").
 */
export function defaultMaxDelay(): number {
  const configured = process.env.SCRUBLINE_STREAM_MAX_DELAY;
  if (!configured || configured === 'off') return Infinity;
  const seconds = Number(configured);
  return Number.isFinite(seconds) && seconds >= MAX_DELAY_RANGE.min && seconds <= MAX_DELAY_RANGE.max ? seconds : MAX_DELAY_RANGE.default;
}
