// Why audio could not be used. Every failure of probing or decoding is one of these, with a message a client can
// act on; the API answers it as a problem (422 for audio that cannot be decoded, 413 over the duration limit, 503
// when the service lacks ffmpeg or was too busy to finish in time) and a job fails with it as its reason.
import { ServiceError, type ErrorKind } from '../errors.js';

export type AudioErrorReason =
  | 'empty' // no bytes, or a valid container with no samples
  | 'not_audio' // not a media file ffmpeg recognizes
  | 'truncated' // a media file cut short: its header promises more than the file holds, or its data ends mid-way
  | 'too_long' // longer than the configured maximum duration
  | 'no_audio_stream' // a media file without an audio stream (video only, subtitles, ...)
  | 'ffmpeg_missing' // ffmpeg/ffprobe is not installed
  | 'timeout'; // ffprobe/ffmpeg did not finish in time (killed)

const KIND: Record<AudioErrorReason, ErrorKind> = {
  empty: 'unprocessable',
  not_audio: 'unprocessable',
  truncated: 'unprocessable',
  too_long: 'too_large',
  no_audio_stream: 'unprocessable',
  ffmpeg_missing: 'unavailable',
  timeout: 'unavailable', // the machine was too busy: the service's fault, retryable
};

export class AudioError extends ServiceError {
  /** Whether trying again cannot help (the job worker fails such a job at once): all but a timeout. */
  readonly permanent: boolean;

  constructor(
    readonly reason: AudioErrorReason,
    message: string,
    extra: Record<string, unknown> = {},
  ) {
    super(KIND[reason], message, [], { reason, ...extra });
    this.name = 'AudioError';
    this.permanent = reason !== 'timeout';
  }
}

export function isAudioError(error: unknown): error is AudioError {
  return error instanceof AudioError;
}
