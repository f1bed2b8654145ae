// Redaction of a word-timed transcript through the one span pipeline (findSpans, via wordSpans): the kinds of the
// rules (and the record's own rules) are detected in each channel's words, restricted before overlaps are
// resolved, and every span is replaced by its mask, keeping the span's time (first word's start to last word's
// end) so that every redacted text span has an audio span. The spans are returned with kind and times only:
// never the value they hid.
import type { Transcript, Word } from '../transcript/types.js';
import type { Masker } from './masks.js';
import type { RecordRules } from './recordRules.js';
import { wordSpans } from './redactText.js';
import type { RedactionRule } from './rules.js';

export interface RedactedSpan {
  channel: number;
  kind: string;
  start: number;
  end: number;
  /** What now stands in the text ('' when removed). */
  replacement: string;
  confidence: number;
}

export interface RedactionResult {
  transcript: Transcript;
  spans: RedactedSpan[];
}

export function redactTranscript(transcript: Transcript, rules: readonly RedactionRule[], masker: Masker, custom?: RecordRules): RedactionResult {
  const spans: RedactedSpan[] = [];
  const channels = transcript.channels.map((channel) => {
    const words = channel.words;
    const found = wordSpans(words.map((w) => w.word), rules, custom);
    if (found.length === 0) return channel;
    const out: Word[] = [];
    let next = 0;
    // Plain loops: spreading a long stretch of words into push() overflows the stack.
    const keep = (from: number, to: number) => {
      for (let i = from; i < to; i++) out.push(words[i]);
    };
    for (const span of found) {
      keep(next, span.wordStart);
      const covered = words.slice(span.wordStart, span.wordEnd);
      const replacement = masker.mask(span.rule, covered.map((w) => w.word).join(' '));
      const start = covered[0].start;
      const end = covered[covered.length - 1].end;
      if (span.rule.maskType === 'MaskCharacter') {
        // Length kept word by word.
        for (const w of covered) out.push({ ...w, word: masker.mask(span.rule, w.word), confidence: 1 });
      } else if (replacement !== '') {
        out.push({ word: replacement, start, end, confidence: 1 });
      }
      spans.push({ channel: channel.channel, kind: span.rule.kind, start, end, replacement, confidence: span.confidence });
      next = span.wordEnd;
    }
    keep(next, words.length);
    return { ...channel, words: out };
  });
  return { transcript: { ...transcript, channels }, spans: spans.sort((a, b) => a.start - b.start || a.channel - b.channel) };
}
