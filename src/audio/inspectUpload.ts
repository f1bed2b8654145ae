// What an upload is, checked before its job is queued: ffprobe's description, and — when the container
// declares no duration or ffmpeg only estimates it — the length measured from the stream itself, so the
// duration limit holds whatever the header says (or does not say).
import { measureDuration, measuredTooLong } from './measure.js';
import { AudioError } from './errors.js';
import { probeAudio, type AudioProbe } from './probe.js';

export interface InspectOptions {
  /** Refuse audio longer than this many seconds (reason `too_long`). */
  maxSeconds: number;
  /** Kill ffprobe after this long. */
  timeoutMs?: number;
}

export async function inspectUpload(path: string, options: InspectOptions): Promise<AudioProbe> {
  const probe = await probeAudio(path, { maxSeconds: options.maxSeconds, timeoutMs: options.timeoutMs });
  if (probe.durationSeconds > 0 && !probe.durationEstimated) return probe;
  const measured = await measureDuration(path, probe, { maxSeconds: options.maxSeconds });
  if (measured > options.maxSeconds) {
    throw measuredTooLong(options.maxSeconds);
  }
  if (measured === 0) throw new AudioError('empty', 'The audio holds no samples (0 s of sound)');
  return { ...probe, durationSeconds: measured, durationEstimated: false };
}
