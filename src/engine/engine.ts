// The engine boundary: everything after recognition (transcript shapes, redaction, analytics, jobs) sees
// only this interface, so another engine (sherpa-onnx with a model the operator brings) plugs in here.
import type { EngineParams } from '../schema/resources/engineParams.js';
import type { ModelInfo } from './models.js';
import type { SpeechSegment, Word } from '../transcript/types.js';

export interface RecognizeOptions {
  /** `language:name` of an installed model of this engine. */
  model: string;
  /** Engine parameters in force (VAD thresholds, numtrans, ...). */
  params: EngineParams;
  /** Stops the recognition (tasks not started are dropped, a running one's words are discarded). */
  signal?: AbortSignal;
  /** Called as the channel's batches finish: `done` of `total` (progress bars). */
  onProgress?: (done: number, total: number) => void;
}

/** Each task's promise, reporting to `onProgress` as it finishes (in any order). */
export function reportingProgress<T>(tasks: Promise<T>[], onProgress?: (done: number, total: number) => void): Promise<T>[] {
  if (!onProgress) return tasks;
  let done = 0;
  onProgress(0, tasks.length);
  return tasks.map((task) =>
    task.then((value) => {
      onProgress(++done, tasks.length);
      return value;
    }),
  );
}

/** Mono 16-bit PCM of one channel, at the engine's sample rate. */
export interface ChannelAudio {
  channel: number;
  sampleRate: number;
  samples: Int16Array;
}

export interface ChannelResult {
  channel: number;
  words: Word[];
  segments: SpeechSegment[];
}

/** An utterance a live stream ended: its words (times from the start of the stream) never change. */
export interface StreamFinal {
  start: number;
  end: number;
  words: Word[];
  /** Seconds of it whose words are the incremental decoder's: a pass shed to keep the final on time. */
  shedSeconds?: number;
  /** A stable-prefix final: part of an utterance that goes on (engine/stablePrefix.ts); its rest comes later. */
  prefix?: { utteranceStart: number; words: number };
}

/** The open utterance so far: its words may still change (no word times yet). */
export interface StreamPartial {
  start: number;
  end: number;
  words: string[];
}

/** What one chunk of a live stream produced. */
export interface StreamUpdate {
  channel: number;
  finals: StreamFinal[];
  partial?: StreamPartial;
  /** Seconds of the channel recognized so far. */
  heardSeconds: number;
}

export interface StreamOptions extends RecognizeOptions {
  /** Every decoded chunk's result, in order. */
  onUpdate(update: StreamUpdate): void;
  /** The stream failed (its decoder or worker); nothing more is reported. */
  onError(error: Error): void;
  /** `phrases` (default): each phrase of an utterance decoded again whole, as batch does, as soon as it pauses; `rescored`: each ended utterance whole (the batch words); `live`: the incremental result. */
  finals?: 'phrases' | 'rescored' | 'live';
  /** Whether partials are wanted (default true); without them an engine may skip its incremental decoding. */
  partials?: boolean;
  /**
   * PocketSphinx `phrases` finals: ms after an utterance's end plus uttmaxsilence by which its final is due; a pass
   * that would end later is shed (the incremental decoder's words). Default SCRUBLINE_STREAM_FINAL_DEADLINE_MS, or Infinity (never shed: batch-quality finals) when unset.
   */
  finalDeadlineMs?: number;
  /**
   * Seconds from a word's end to the final holding it (0.7-4; engine/stablePrefix.ts): long unpaused speech gets
   * stable-prefix finals before its utterance ends. Default SCRUBLINE_STREAM_MAX_DELAY, else Infinity: finals
   * only at the end of an utterance (the behaviour before maxDelay).
   */
  maxDelay?: number;
}

/** One channel of a live call, fed as it arrives (PCM at the engine's sample rate), decoded off the event loop. */
export interface EngineStream {
  readonly channel: number;
  /** Queue PCM for decoding (never blocks; see pendingSeconds for the backlog). */
  write(samples: Int16Array): void;
  /** Audio written and not yet decoded (s): the back-pressure measure. */
  pendingSeconds(): number;
  /** End of audio: everything queued decoded, the open utterance final; answers every final word. */
  finish(): Promise<ChannelResult>;
  /** Drop the stream now (its decoder is freed). */
  abort(): void;
}

export interface Engine {
  readonly name: string;
  /** Models of this engine, installed or not (with the reason). */
  models(): ModelInfo[];
  /** The sample rate the engine wants its PCM in. */
  sampleRate(model: string): number;
  /** Recognize one channel: word times are seconds from the start of `audio`. */
  recognize(audio: ChannelAudio, options: RecognizeOptions): Promise<ChannelResult>;
  /**
   * Real-time recognition of one channel (engines and models that stream; callers check for it): partials
   * while a person speaks, a final with word times when the utterance ends (uttmaxsilence, uttmaxtime).
   */
  stream?(channel: number, options: StreamOptions): EngineStream;
  /** Why this model cannot serve a live stream (e.g. it would need word alignment that is not installed); undefined: it can. */
  whyNotStreaming?(model: string): string | undefined;
  close(): Promise<void>;
}
