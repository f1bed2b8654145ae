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

/** What a real-time stream has recognized so far: final words never change; partial ones may. */
export interface StreamUpdate {
  finalWords: Word[];
  partialWords: Word[];
}

/** One channel of a live call, fed as it arrives (the engine's sample rate). */
export interface EngineStream {
  accept(samples: Int16Array): StreamUpdate;
  /** End of audio: everything final. */
  finish(): Promise<ChannelResult>;
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
   * Real-time recognition, for engines and models that stream (sherpa-onnx online transducers): not
   * implemented yet by either engine; callers check for it. Batch callers never need it.
   */
  stream?(channel: number, options: RecognizeOptions): EngineStream;
  close(): Promise<void>;
}
