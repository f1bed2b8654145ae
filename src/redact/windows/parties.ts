// The parties of a recognized call and when each speaks: one per channel on a stereo call, one per speaker
// label on a mono call that carries them (then both parties share the channel), one for an unlabelled mono call.
import type { SpeechSegment } from '../../transcript/types.js';
import type { TimedWord } from './numberSpeech.js';

/** A recognized word, optionally labelled with its speaker (diarized mono). */
export interface WindowWord extends TimedWord {
  speaker?: string | number;
}

/** What window finding reads: the internal Transcript fits it. */
export interface WindowTranscript {
  channels: readonly { channel: number; words: readonly WindowWord[]; segments?: readonly SpeechSegment[] }[];
  /** Windows never run past the recording. */
  audioSeconds?: number;
}

export interface Party {
  id: string;
  channel: number;
  words: WindowWord[];
  /** When the party speaks, in time order: its words, and on a channel of its own the decoded speech segments too. */
  activity: SpeechSegment[];
}

export function partiesOf(transcript: WindowTranscript): Party[] {
  const parties: Party[] = [];
  for (const ch of transcript.channels) {
    const words = [...ch.words].sort((a, b) => a.start - b.start);
    const labelled = words.some((w) => w.speaker !== undefined);
    if (!labelled) {
      parties.push({ id: `${ch.channel}`, channel: ch.channel, words, activity: activityOf(words, ch.segments ?? []) });
      continue;
    }
    const bySpeaker = new Map<string, WindowWord[]>();
    for (const w of words) {
      const id = `${ch.channel}:${w.speaker ?? '?'}`;
      let list = bySpeaker.get(id);
      if (!list) bySpeaker.set(id, (list = []));
      list.push(w);
    }
    // Segments are the channel's, shared by its speakers: only words tell who spoke.
    for (const [id, list] of bySpeaker) parties.push({ id, channel: ch.channel, words: list, activity: activityOf(list, []) });
  }
  return parties;
}

function activityOf(words: readonly TimedWord[], segments: readonly SpeechSegment[]): SpeechSegment[] {
  const all = [...words.map((w) => ({ start: w.start, end: w.end })), ...segments.map((s) => ({ start: s.start, end: s.end }))];
  all.sort((a, b) => a.start - b.start);
  const merged: SpeechSegment[] = [];
  for (const s of all) {
    const last = merged[merged.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else merged.push({ ...s });
  }
  return merged;
}
