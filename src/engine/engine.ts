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

export interface Engine {
  readonly name: string;
  /** Models of this engine, installed or not (with the reason). */
  models(): ModelInfo[];
  /** The sample rate the engine wants its PCM in. */
  sampleRate(model: string): number;
  /** Recognize one channel: word times are seconds from the start of `audio`. */
  recognize(audio: ChannelAudio, options: RecognizeOptions): Promise<ChannelResult>;
  close(): Promise<void>;
}
