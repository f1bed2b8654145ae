// How much of each channel's speech the redacted copy mutes: the figure that shows over-redaction (a window mode
// or a widened re-check that took more than the sensitive part). Speech is what the recognizer timed on the
// original: its words and decoded speech segments. Only seconds and shares: never a word.
import type { Transcript } from '../../transcript/types.js';

export interface ChannelMuted {
  channel: number;
  /** 'agent' or 'caller' on a call with a channel per party; 'both' on a mono call. */
  role: 'agent' | 'caller' | 'both';
  /** Seconds of this channel's audio muted (overlaps counted once). */
  mutedSeconds: number;
  /** Seconds of speech on this channel (words and speech segments, overlaps counted once). */
  speechSeconds: number;
  /** Seconds of that speech that are muted. */
  speechMutedSeconds: number;
  /** speechMutedSeconds / speechSeconds (0 when the channel has no speech). */
  speechMutedShare: number;
}

interface Stretch {
  start: number;
  end: number;
}

const round = (t: number) => Math.round(t * 1000) / 1000;

function union(stretches: readonly Stretch[]): Stretch[] {
  const sorted = stretches.filter((s) => s.end > s.start).sort((a, b) => a.start - b.start);
  const out: Stretch[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ start: s.start, end: s.end });
  }
  return out;
}

const total = (stretches: readonly Stretch[]) => stretches.reduce((t, s) => t + s.end - s.start, 0);

function overlap(a: readonly Stretch[], b: readonly Stretch[]): number {
  let sum = 0;
  for (const x of a) for (const y of b) sum += Math.max(0, Math.min(x.end, y.end) - Math.max(x.start, y.start));
  return sum;
}

/** Per channel of the recording: seconds muted, seconds of speech, and the share of that speech muted. */
export function mutedSpeechReport(
  recognized: Transcript,
  muted: readonly { channel: number; start: number; end: number }[],
  channels: number,
  agentChannel: number,
): ChannelMuted[] {
  return Array.from({ length: Math.max(channels, 1) }, (_, channel) => {
    const heard = recognized.channels.find((c) => c.channel === channel);
    const speech = union([...(heard?.words ?? []), ...(heard?.segments ?? [])]);
    const mine = union(muted.filter((m) => m.channel === channel));
    const speechSeconds = total(speech);
    const speechMutedSeconds = overlap(speech, mine);
    return {
      channel,
      role: channels <= 1 ? 'both' : channel === agentChannel ? 'agent' : 'caller',
      mutedSeconds: round(total(mine)),
      speechSeconds: round(speechSeconds),
      speechMutedSeconds: round(speechMutedSeconds),
      speechMutedShare: speechSeconds > 0 ? Math.round((speechMutedSeconds / speechSeconds) * 1000) / 1000 : 0,
    };
  });
}
