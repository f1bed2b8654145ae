// Loudness of each channel over a recording (issue 35): the RMS level of each bucket of samples, in dBFS
// (0 dB = a full-scale square wave; a full-scale sine is -3.0), to 0.1 dB. One party a channel on a stereo call,
// so this is loudness per party over time. Buckets are 1 s, longer on a long call so a channel has at most
// MAX_BUCKETS of them; the last bucket is whatever is left. Digital silence (RMS 0) is null: it has no level.
// Pure and CPU-bound (a pass over every sample): run it on a worker (workers/index.ts loudnessOffLoop).

export interface ChannelLoudness {
  channel: number;
  bucketSeconds: number;
  /** One level per bucket, in order; null where the bucket is digital silence. */
  dbfs: (number | null)[];
  /** RMS over the whole channel (energy average, not an average of dB). */
  averageDbfs: number | null;
  /** The highest absolute sample. */
  peakDbfs: number | null;
}

export const MAX_BUCKETS = 1200;
const FULL_SCALE = 32768;

// `|| 0`: a level that rounds to zero from below is 0, not -0 (JSON and deepEqual tell them apart).
const db = (ratio: number): number | null => (ratio > 0 ? Math.round(20 * Math.log10(ratio) * 10) / 10 || 0 : null);

/** The bucket length for a recording of `seconds`: 1 s, or whole seconds enough to stay within MAX_BUCKETS. */
export function bucketSecondsFor(seconds: number): number {
  return Math.max(1, Math.ceil(seconds / MAX_BUCKETS));
}

export function channelLoudness(samples: Int16Array, channel: number, sampleRate: number, bucketSeconds: number): ChannelLoudness {
  const size = Math.max(1, Math.round(bucketSeconds * sampleRate));
  const dbfs: (number | null)[] = [];
  let total = 0;
  let peak = 0;
  for (let from = 0; from < samples.length; from += size) {
    const to = Math.min(samples.length, from + size);
    let sum = 0;
    for (let i = from; i < to; i++) {
      const x = samples[i];
      sum += x * x;
      const a = x < 0 ? -x : x;
      if (a > peak) peak = a;
    }
    total += sum;
    dbfs.push(db(Math.sqrt(sum / (to - from)) / FULL_SCALE));
  }
  return {
    channel,
    bucketSeconds,
    dbfs,
    averageDbfs: samples.length > 0 ? db(Math.sqrt(total / samples.length) / FULL_SCALE) : null,
    peakDbfs: db(peak / FULL_SCALE),
  };
}

/** Every channel of a decoded recording. */
export function loudnessOf(channels: readonly Int16Array[], sampleRate: number): ChannelLoudness[] {
  const seconds = Math.max(0, ...channels.map((c) => c.length)) / sampleRate;
  const bucket = bucketSecondsFor(seconds);
  return channels.map((samples, channel) => channelLoudness(samples, channel, sampleRate, bucket));
}
