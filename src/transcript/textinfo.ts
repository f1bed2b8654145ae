// textinfo / textinfoB figures of the vendor shapes (resources 3 and 4), per channel and for the whole call.
//
// Meanings (the interface gives only the types; arrays are [amount, share] pairs, V-Blaze style):
//   turns     speaker turns: a turn is a maximal run of consecutive utterances (in conversation order) from
//             one channel. Per channel: that channel's turns; overall: all turns (speaker changes + 1).
//   words     number of recognized words (per channel / all channels).
//   wordtime  [seconds during which a word is being spoken, that / audiosecs]. Per channel: the sum of its
//             word durations; overall: the union over channels (time during which anyone speaks a word).
//   silence   [seconds not covered by any utterance, that / audiosecs]. Per channel: time that channel is not
//             in an utterance; overall: time no channel is in an utterance (dead air). Pauses shorter than
//             uttmaxsilence stay inside utterances and so are not silence.
//   overtalk  (textinfoB) from overlapping utterances of different channels. An overtalk event is a pair of
//             utterances of two channels that overlap in time; it belongs to the channel whose utterance
//             started later (the one who talked over the other; on a tie, the later row).
//             count   [events, events / turns]
//             time    [seconds of overlap, that / audiosecs]
//             avgtime seconds of overlap per event (0 when none).
// All seconds and shares are rounded to 3 decimals.
import type { TextInfo, TextInfoB } from '../schema/resources/vendorTranscripts.js';
import type { Static } from 'typebox';
import { round3 } from './meta.js';
import type { Transcript } from './types.js';
import type { TranscriptUtterance } from './utterances.js';

export type TextInfoFigures = Static<typeof TextInfo>;
export type TextInfoBFigures = Static<typeof TextInfoB>;

interface Span {
  start: number;
  end: number;
}

/** Sorted, merged spans. */
export function mergeSpans(spans: readonly Span[]): Span[] {
  const sorted = spans.filter((s) => s.end > s.start).sort((a, b) => a.start - b.start);
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ start: s.start, end: s.end });
  }
  return out;
}

export const spanSeconds = (spans: readonly Span[]): number => mergeSpans(spans).reduce((sum, s) => sum + (s.end - s.start), 0);

const share = (seconds: number, of: number): number => (of > 0 ? round3(seconds / of) : 0);
const pair = (amount: number, of: number): number[] => [round3(amount), share(amount, of)];

/** Turns per channel and overall, from utterances in conversation order. */
export function countTurns(utterances: readonly TranscriptUtterance[]): { total: number; byChannel: Map<number, number> } {
  const byChannel = new Map<number, number>();
  let total = 0;
  let previous: number | undefined;
  for (const u of utterances) {
    if (u.channel !== previous) {
      total++;
      byChannel.set(u.channel, (byChannel.get(u.channel) ?? 0) + 1);
      previous = u.channel;
    }
  }
  return { total, byChannel };
}

export interface OvertalkEvent {
  /** The channel that talked over the other (its utterance started later). */
  channel: number;
  /** Rows of the two utterances: the one talked over, and the one that talked over it. */
  over: number;
  by: number;
  start: number;
  end: number;
}

/** Every overlap of two utterances of different channels. */
export function overtalkEvents(utterances: readonly TranscriptUtterance[]): OvertalkEvent[] {
  const sorted = [...utterances].sort((a, b) => a.start - b.start || a.row - b.row);
  const events: OvertalkEvent[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const a = sorted[i];
    for (let j = i + 1; j < sorted.length && sorted[j].start < a.end; j++) {
      const b = sorted[j];
      if (b.channel === a.channel) continue;
      const start = Math.max(a.start, b.start);
      const end = Math.min(a.end, b.end);
      if (end <= start) continue;
      // Sorted by start then row: b started later (or, on equal starts, is the later row), so b talks over a.
      events.push({ channel: b.channel, over: a.row, by: b.row, start, end });
    }
  }
  return events;
}

function overtalkFigures(events: readonly OvertalkEvent[], turns: number, audioSeconds: number) {
  const seconds = events.reduce((sum, e) => sum + (e.end - e.start), 0);
  return {
    count: [events.length, turns > 0 ? round3(events.length / turns) : 0],
    avgtime: events.length > 0 ? round3(seconds / events.length) : 0,
    time: pair(seconds, audioSeconds),
  };
}

export interface ConversationTextInfo {
  /** One entry per channel of the transcript, in the order of transcript.channels. */
  channels: { channel: number; textinfo: TextInfoBFigures }[];
  overall: TextInfoBFigures;
}

/** textinfoB (textinfo plus overtalk) per channel and overall; textinfo is the same without overtalk. */
export function computeTextInfo(
  transcript: Pick<Transcript, 'channels' | 'audioSeconds'>,
  utterances: readonly TranscriptUtterance[],
): ConversationTextInfo {
  const audio = transcript.audioSeconds;
  const turns = countTurns(utterances);
  const events = overtalkEvents(utterances);
  const channels = transcript.channels.map((ch) => {
    const own = utterances.filter((u) => u.channel === ch.channel);
    const channelTurns = turns.byChannel.get(ch.channel) ?? 0;
    const talk = spanSeconds(own);
    return {
      channel: ch.channel,
      textinfo: {
        turns: channelTurns,
        words: ch.words.length,
        wordtime: pair(spanSeconds(ch.words), audio),
        silence: pair(Math.max(0, audio - talk), audio),
        overtalk: overtalkFigures(events.filter((e) => e.channel === ch.channel), channelTurns, audio),
      },
    };
  });
  const overall: TextInfoBFigures = {
    turns: turns.total,
    words: transcript.channels.reduce((n, ch) => n + ch.words.length, 0),
    wordtime: pair(spanSeconds(transcript.channels.flatMap((ch) => ch.words)), audio),
    silence: pair(Math.max(0, audio - spanSeconds(utterances)), audio),
    overtalk: overtalkFigures(events, turns.total, audio),
  };
  return { channels, overall };
}

/** textinfo (resource 3) from textinfoB: the same figures without overtalk. */
export function withoutOvertalk(info: TextInfoBFigures): TextInfoFigures {
  const { overtalk: _overtalk, ...rest } = info;
  return rest;
}
