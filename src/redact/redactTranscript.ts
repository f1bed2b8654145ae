// Redaction of a word-timed transcript: every detected span of a kind that a rule covers is replaced by its
// mask, keeping the span's time (first word's start to last word's end) so that every redacted text span
// has an audio span. The spans are returned with kind and times only: never the value they hid.
import type { Transcript, Word } from '../transcript/types.js';
import type { Masker } from './masks.js';
import type { RedactionRule } from './rules.js';
import type { Detection } from './types.js';

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

/**
 * `detect` finds candidate spans (word indices) in one channel's words; only kinds with a rule are redacted.
 * Overlapping detections are merged into one span under the most confident one's kind.
 */
export function redactTranscript(
  transcript: Transcript,
  rules: readonly RedactionRule[],
  detect: (words: string[]) => Detection[],
  masker: Masker,
): RedactionResult {
  const byKind = new Map(rules.map((rule) => [rule.kind, rule]));
  const spans: RedactedSpan[] = [];
  if (byKind.size === 0) return { transcript, spans };
  const channels = transcript.channels.map((channel) => {
    const words = channel.words;
    const found = detect(words.map((w) => w.word))
      .filter((d) => d.wordStart !== undefined && d.wordEnd !== undefined && d.wordEnd > d.wordStart && byKind.has(d.kind))
      .sort((a, b) => a.wordStart! - b.wordStart!);
    // Overlapping detections merge into one span, under the kind of the most confident among them.
    const claimed: { start: number; end: number; detection: Detection }[] = [];
    for (const d of found) {
      const last = claimed[claimed.length - 1];
      if (last && d.wordStart! < last.end) {
        last.end = Math.max(last.end, d.wordEnd!);
        if (d.confidence > last.detection.confidence) last.detection = d;
      } else {
        claimed.push({ start: d.wordStart!, end: d.wordEnd!, detection: d });
      }
    }
    const out: Word[] = [];
    let next = 0;
    for (const span of claimed) {
      out.push(...words.slice(next, span.start));
      const covered = words.slice(span.start, span.end);
      const rule = byKind.get(span.detection.kind)!;
      const value = covered.map((w) => w.word).join(' ');
      const replacement = masker.mask(rule, value);
      const start = covered[0].start;
      const end = covered[covered.length - 1].end;
      if (rule.maskType === 'MaskCharacter') {
        // Length kept word by word.
        for (const w of covered) out.push({ ...w, word: masker.mask(rule, w.word), confidence: 1 });
      } else if (replacement !== '') {
        out.push({ word: replacement, start, end, confidence: 1 });
      }
      spans.push({ channel: channel.channel, kind: rule.kind, start, end, replacement, confidence: span.detection.confidence });
      next = span.end;
    }
    out.push(...words.slice(next));
    return { ...channel, words: out };
  });
  return { transcript: { ...transcript, channels }, spans: spans.sort((a, b) => a.start - b.start || a.channel - b.channel) };
}
