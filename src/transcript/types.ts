// The one internal transcript every engine produces and every output shape is derived from: words with
// times (seconds from the start of the recording) and confidences, per audio channel.
import type { ChannelLoudness } from '../audio/loudness.js';

export interface Word {
  /** The word as recognized, lower case, no punctuation. */
  word: string;
  /** Seconds from the start of the recording. */
  start: number;
  end: number;
  /** 0..1 */
  confidence: number;
}

/** A stretch of speech found by voice activity detection, decoded as one unit. */
export interface SpeechSegment {
  start: number;
  end: number;
}

export interface ChannelTranscript {
  /** 0-based channel index in the source audio. */
  channel: number;
  words: Word[];
  /** The speech segments that were decoded (for utterance building and silence figures). */
  segments: SpeechSegment[];
}

export interface Transcript {
  /** Model used, `language:name`. */
  model: string;
  engine: string;
  language: string;
  /** Duration of the recording in seconds. */
  audioSeconds: number;
  /** Sample rate of the source audio (before resampling for the engine). */
  sourceSampleRate: number;
  channels: ChannelTranscript[];
  /** Wall-clock seconds spent recognizing (for real-time factor figures). */
  processingSeconds: number;
  /** True when word times are estimates (text input), not measured on audio. */
  estimatedTimes?: boolean;
  /** Loudness per channel over the recording (issue 35), measured when the job asked for analytics. */
  loudness?: ChannelLoudness[];
}
