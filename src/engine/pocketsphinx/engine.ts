// The PocketSphinx engine: one channel of 16 kHz PCM → voice-activity segments (engine parameters) → each
// segment decoded as one utterance (segments longer than MAX_UNIT_SECONDS cut at their quietest moment) →
// words with times from the start of the channel.
//
// Measured on the dev files concatenated into 130 s streams with pauses (three orderings): one utterance per VAD
// segment of at most 15 s gave 15.9–16.9% WER, the whole stream as one utterance 22.7%; more padding (500 ms)
// was worse (18.0%). Short recordings are one segment anyway. See eval/wer.ts and the report in the README.
//
// The channel is cut into batches of segments (at least BATCH_SECONDS of audio each) that decode on the worker
// pool in parallel, each with a fresh decoder: a long mono recording uses every core, and a stereo call decodes
// its two channels at once.
import { detectSpeech, vadParamsFrom } from '../../audio/vad.js';
import type { Word } from '../../transcript/types.js';
import type { ChannelAudio, ChannelResult, Engine, RecognizeOptions } from '../engine.js';
import { listModels, type ModelInfo } from '../models.js';
import { sharedPool, type DecoderPool, type PoolResult } from '../pool.js';
import type { PocketSphinxModel } from './decoder.js';

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
  private readonly pool: DecoderPool;
  private readonly batchSeconds: number;

  constructor(options: PocketSphinxEngineOptions = {}) {
    this.pool = options.pool ?? sharedPool();
    this.batchSeconds = options.batchSeconds ?? BATCH_SECONDS;
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
    const vad = vadParamsFrom(options.params as Record<string, unknown>);
    const segments = detectSpeech(audio.samples, audio.sampleRate, {
      ...vad,
      uttmaxtime: Math.min(vad.uttmaxtime, MAX_UNIT_SECONDS),
    });
    const batches = batch(segments, this.batchSeconds);
    const rate = audio.sampleRate;
    const results = await Promise.all(
      batches.map((units) => {
        const from = Math.floor(units[0].start * rate);
        const to = Math.min(audio.samples.length, Math.ceil(units[units.length - 1].end * rate));
        const offsetSeconds = from / rate;
        return this.pool.run({
          kind: 'pocketsphinx',
          model,
          // A copy of the stretch, owned by the task and transferred to the worker.
          samples: audio.samples.slice(from, to),
          units: units.map((u) => ({ start: u.start - offsetSeconds, end: u.end - offsetSeconds })),
          offsetSeconds,
        });
      }),
    );
    const words: Word[] = results.flatMap((r) => r.words);
    return { channel: audio.channel, words: monotonic(words), segments, stats: stats(results) };
  }

  async close(): Promise<void> {
    // The shared pool outlives an engine; an engine given its own pool leaves closing it to its owner.
  }
}

/** Consecutive segments grouped so each group spans at least `seconds` of audio (the last may be shorter). */
function batch<T extends { start: number; end: number }>(segments: T[], seconds: number): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  for (const seg of segments) {
    current.push(seg);
    if (current[current.length - 1].end - current[0].start >= seconds) {
      out.push(current);
      current = [];
    }
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** Words in time order with no overlap (a decoder may end a word a frame after the next begins). */
function monotonic(words: Word[]): Word[] {
  words.sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 1; i < words.length; i++) {
    const prev = words[i - 1];
    if (words[i].start < prev.end) prev.end = Math.max(prev.start, words[i].start);
  }
  return words;
}

function stats(results: PoolResult[]): ChannelStats {
  return {
    cpuSeconds: results.reduce((s, r) => s + r.initSeconds + r.decodeSeconds, 0),
    tasks: results.length,
    peakRssBytes: results.reduce((m, r) => Math.max(m, r.rssBytes), 0),
  };
}
