// How long a recording really is when its container does not say (a FLAC or Ogg stream written without a
// total, an MP3 whose length ffmpeg only guesses from the bit rate): ffmpeg reads the audio stream to its end
// — or to one second past the limit, whichever comes first — and reports how far it got. Reading the packets
// (stream copy) is cheap and tells the length from the stream itself; when that gives nothing the audio is
// decoded. The job worker's decode stops at the limit too, so a stream that lies in its packets still cannot
// run on past it.
import { AudioError } from './errors.js';
import { DEFAULT_PROBE_TIMEOUT_MS, ffmpegProgram, runTool, type AudioProbe } from './probe.js';

export interface MeasureOptions {
  /** Stop reading one second past this (the answer is then "more than maxSeconds"). */
  maxSeconds: number;
  /** Kill ffmpeg after this long; default 30 s for reading packets, 60 s plus 10 ms a second of limit for decoding. */
  timeoutMs?: number;
}

/** Seconds of audio in the probed stream, read up to maxSeconds + 1. */
export async function measureDuration(path: string, probe: Pick<AudioProbe, 'streamIndex'>, options: MeasureOptions): Promise<number> {
  const copied = await readTo(path, probe.streamIndex, options.maxSeconds, ['-c', 'copy'], options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS);
  if (copied > 0) return copied;
  return readTo(path, probe.streamIndex, options.maxSeconds, [], options.timeoutMs ?? 60_000 + options.maxSeconds * 10);
}

/** How far ffmpeg got through the stream (its last progress report), writing to the null muxer. */
async function readTo(path: string, streamIndex: number, maxSeconds: number, codec: string[], timeoutMs: number): Promise<number> {
  const args = ['-nostdin', '-hide_banner', '-nostats', '-v', 'error', '-i', path, '-map', `0:${streamIndex}`, '-vn', '-sn', '-dn'];
  args.push('-t', String(maxSeconds + 1), ...codec, '-progress', 'pipe:1', '-f', 'null', '-');
  const result = await runTool(ffmpegProgram(), args, { timeoutMs });
  // The last out_time_us is where it stopped; a failure part-way still tells how far the audio went.
  const reports = [...result.stdout.toString('utf8').matchAll(/^out_time_us=(-?\d+)$/gm)];
  const last = reports.length > 0 ? Number(reports[reports.length - 1][1]) / 1e6 : 0;
  if (!Number.isFinite(last) || last < 0) return 0;
  return last;
}

/** The error for audio whose measured length passed the limit (it was read only to just past it). */
export function measuredTooLong(maxSeconds: number): AudioError {
  return new AudioError(
    'too_long',
    `The audio lasts more than the ${maxSeconds} s allowed (measured by reading it: its container does not declare its duration)`,
    { maxSeconds, measured: true },
  );
}
