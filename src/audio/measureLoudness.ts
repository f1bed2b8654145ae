// Loudness per channel of a recording file (issue 35): decoded by ffmpeg (a child process) at 8 kHz — enough for
// a level, half the samples of the engine's rate — and measured on a worker thread (audio/loudness.ts), so the
// event loop does neither.
import { decodeChannels } from './decode.js';
import type { ChannelLoudness } from './loudness.js';
import { loudnessOffLoop } from '../workers/index.js';

export const LOUDNESS_SAMPLE_RATE = 8000;

export async function measureLoudness(file: string, options: { maxSeconds?: number; signal?: AbortSignal } = {}): Promise<ChannelLoudness[]> {
  const decoded = await decodeChannels(file, { sampleRate: LOUDNESS_SAMPLE_RATE, maxSeconds: options.maxSeconds, signal: options.signal });
  return loudnessOffLoop(decoded.channels, decoded.sampleRate);
}
