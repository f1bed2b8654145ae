// Words -> utterances. Each channel's words are cut into utterances where the pause between two words is
// longer than uttmaxsilence, where the voice-activity segmentation put them in different segments, and
// where an utterance would grow beyond uttmaxtime; the utterances of all channels are then put in
// conversation order (by start time) and numbered.
import type { EngineParams } from '../schema/resources/engineParams.js';
import type { SpeechSegment, Transcript, Word } from './types.js';

/** uttmaxsilence's default (800 ms). */
export const DEFAULT_MAX_SILENCE_SECONDS = 0.8;
/** uttmaxtime's default (60 s). */
export const DEFAULT_MAX_UTTERANCE_SECONDS = 60;

export interface UtteranceOptions {
  /** A pause between two words longer than this ends an utterance (seconds). */
  maxSilenceSeconds?: number;
  /** No utterance spans more than this (seconds), unless one word alone does. */
  maxUtteranceSeconds?: number;
  /** Also cut where consecutive words fall in different VAD segments (default true). */
  splitAtSegments?: boolean;
}

export interface TranscriptUtterance {
  /** 0-based position in conversation order (all channels); also vendor `uttid`, resource 11 `row`. */
  row: number;
  channel: number;
  /** Start of the first word and end of the last word (seconds). */
  start: number;
  end: number;
  words: Word[];
  /** Index of the first word in the channel's `words`, and one past the last: words = channel.words.slice(wordStart, wordEnd). */
  wordStart: number;
  wordEnd: number;
}

/** Engine parameters (uttmaxsilence in ms, uttmaxtime in s) to utterance options. */
export function utteranceOptionsFromParams(params: Pick<EngineParams, 'uttmaxsilence' | 'uttmaxtime'>): UtteranceOptions {
  return {
    maxSilenceSeconds: typeof params.uttmaxsilence === 'number' && params.uttmaxsilence > 0 ? params.uttmaxsilence / 1000 : undefined,
    maxUtteranceSeconds: typeof params.uttmaxtime === 'number' && params.uttmaxtime > 0 ? params.uttmaxtime : undefined,
  };
}

/** Times are decimal seconds in binary floating point: 1.1 - 0.7 must not count as more than 0.4. */
const EPSILON = 1e-9;

/** Index of the segment holding the word's midpoint, or -1. Segments are sorted by start. */
function segmentOf(segments: readonly SpeechSegment[], word: Word): number {
  const mid = (word.start + word.end) / 2;
  let lo = 0;
  let hi = segments.length - 1;
  while (lo <= hi) {
    const m = (lo + hi) >> 1;
    if (segments[m].end < mid) lo = m + 1;
    else if (segments[m].start > mid) hi = m - 1;
    else return m;
  }
  return -1;
}

/** One channel's utterances (rows not yet assigned). */
export function splitChannel(
  channel: number,
  words: readonly Word[],
  segments: readonly SpeechSegment[],
  options: UtteranceOptions = {},
): Omit<TranscriptUtterance, 'row'>[] {
  const maxSilence = options.maxSilenceSeconds ?? DEFAULT_MAX_SILENCE_SECONDS;
  const maxLength = options.maxUtteranceSeconds ?? DEFAULT_MAX_UTTERANCE_SECONDS;
  const bySegment = (options.splitAtSegments ?? true) && segments.length > 0;
  const sortedSegments = bySegment ? [...segments].sort((a, b) => a.start - b.start) : [];

  const out: Omit<TranscriptUtterance, 'row'>[] = [];
  let first = 0;
  let segment = -1;
  const close = (endExclusive: number) => {
    if (endExclusive <= first) return;
    const slice = words.slice(first, endExclusive);
    out.push({
      channel,
      start: slice[0].start,
      end: slice.reduce((m, w) => Math.max(m, w.end), slice[0].end),
      words: slice,
      wordStart: first,
      wordEnd: endExclusive,
    });
  };
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    // Words outside every segment keep the segment of the word before them: only a change between two
    // known segments cuts.
    const found = bySegment ? segmentOf(sortedSegments, word) : -1;
    if (i > first) {
      const previous = words[i - 1];
      const gap = word.start - previous.end;
      const newSegment = found >= 0 && segment >= 0 && found !== segment;
      const tooLong = word.end - words[first].start > maxLength + EPSILON;
      if (gap > maxSilence + EPSILON || newSegment || tooLong) {
        close(i);
        first = i;
      }
    }
    if (found >= 0) segment = found;
  }
  close(words.length);
  return out;
}

/** Utterances of every channel in conversation order (start, then channel, then end), numbered from 0. */
export function buildUtterances(transcript: Pick<Transcript, 'channels'>, options: UtteranceOptions = {}): TranscriptUtterance[] {
  const all = transcript.channels.flatMap((ch) => splitChannel(ch.channel, ch.words, ch.segments ?? [], options));
  all.sort((a, b) => a.start - b.start || a.channel - b.channel || a.end - b.end);
  return all.map((u, row) => ({ row, ...u }));
}
