// Detection over a conversation rather than one utterance at a time: the pieces of one speaker (utterances,
// in time order) are searched as one stream, so a value said across two of them ("my card is four one one
// one" | "one one one one ...") is found, and each span is cut back into the part of every piece it covers.
// Each piece is a line (redactLine and before/after context of the record's rules stay within it).
import type { Masker, MaskRule } from './masks.js';
import { docFromText } from './recognizers/doc.js';
import type { RecordRules } from './recordRules.js';
import { wordSpans } from './redactText.js';
import type { RedactionRule } from './rules.js';
import { findSpans, type SpanOptions } from './spans.js';

/** The part of one piece that a span covers: words [start, end) of a word piece, characters of a text piece. */
export interface Part {
  piece: number;
  start: number;
  end: number;
}

export interface StreamSpan {
  rule: MaskRule;
  confidence: number;
  /** The whole value (its words joined by spaces, or its characters across pieces). */
  value: string;
  /** The values in it as the rules alone find them, each with its confidence (RedactionSpan.values). */
  values: { value: string; confidence: number }[];
  /** In stream order; at least one. */
  parts: Part[];
}

/** Spans over word pieces searched as one stream; `lineStarts` (stream word indices) default to the piece starts. */
export function wordStreamSpans(
  pieces: readonly (readonly string[])[],
  rules: readonly RedactionRule[],
  custom?: RecordRules,
  lineStarts?: readonly number[],
  detections?: SpanOptions['detections'],
): StreamSpan[] {
  const words = pieces.flat();
  const pieceOf: number[] = [];
  const firstWord: number[] = [];
  pieces.forEach((piece, p) => {
    firstWord.push(pieceOf.length);
    for (let i = 0; i < piece.length; i++) pieceOf.push(p);
  });
  const spans = wordSpans(words, rules, custom, { lineStarts: lineStarts ?? firstWord.filter((w, p) => pieces[p].length > 0), detections });
  return spans.map((span) => {
    const parts: Part[] = [];
    for (let w = span.wordStart; w < span.wordEnd; w++) {
      const p = pieceOf[w];
      const last = parts[parts.length - 1];
      if (last?.piece === p) last.end = w - firstWord[p] + 1;
      else parts.push({ piece: p, start: w - firstWord[p], end: w - firstWord[p] + 1 });
    }
    const value = (from: number, to: number) => words.slice(from, to).join(' ');
    const values = (span.values ?? [span]).map((v) => ({ value: value(v.wordStart, v.wordEnd), confidence: v.confidence }));
    return { rule: span.rule, confidence: span.confidence, value: value(span.wordStart, span.wordEnd), values, parts };
  });
}

/** Spans over text pieces searched as one stream (pieces joined by line breaks); parts are character ranges. */
export function textStreamSpans(pieces: readonly string[], rules: readonly RedactionRule[], custom?: RecordRules, detections?: SpanOptions['detections']): StreamSpan[] {
  const offsets: number[] = [];
  let at = 0;
  for (const piece of pieces) {
    offsets.push(at);
    at += piece.length + 1;
  }
  const text = pieces.join('\n');
  const doc = detections ? detections.textDoc(text, () => docFromText(text)) : docFromText(text);
  // The first word of each non-empty piece starts a line.
  const lineStarts: number[] = [];
  let w = 0;
  for (const offset of offsets) {
    while (w < doc.words.length && doc.words[w].start < offset) w++;
    if (w < doc.words.length && lineStarts[lineStarts.length - 1] !== w) lineStarts.push(w);
  }
  return findSpans(doc, rules, custom, { lineStarts, detections }).map((span) => {
    const parts: Part[] = [];
    for (let p = pieceAt(offsets, span.start); p < pieces.length && offsets[p] < span.end; p++) {
      const start = Math.max(span.start, offsets[p]);
      const end = Math.min(span.end, offsets[p] + pieces[p].length);
      if (start < end) parts.push({ piece: p, start: start - offsets[p], end: end - offsets[p] });
    }
    const values = (span.values ?? [span]).map((v) => ({ value: text.slice(v.start, v.end), confidence: v.confidence }));
    return { rule: span.rule, confidence: span.confidence, value: text.slice(span.start, span.end), values, parts };
  });
}

/** The last piece starting at or before character `at` (offsets ascending, the first 0). */
function pieceAt(offsets: readonly number[], at: number): number {
  let lo = 0;
  let hi = offsets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid] <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * What stands for one part of a span: a character mask covers the part's own characters; any other mask stands
 * whole in each part (the same token, so the pieces still read as one value).
 */
export function partMask(r: { readonly masker: Masker }, span: StreamSpan, partText: string): string {
  return span.rule.maskType === 'MaskCharacter' ? r.masker.mask(span.rule, partText) : r.masker.mask(span.rule, span.value);
}

/** Group indices by a key, each group ordered by time (then by position). */
export function byStream<T>(items: readonly T[], key: (item: T) => unknown, time: (item: T) => number | undefined): number[][] {
  const groups = new Map<unknown, number[]>();
  items.forEach((item, i) => {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(i);
    else groups.set(k, [i]);
  });
  const at = (i: number) => time(items[i]) ?? Number.NEGATIVE_INFINITY;
  return [...groups.values()].map((indices) => {
    // Untimed items keep their place relative to the timed item before them.
    let last = Number.NEGATIVE_INFINITY;
    const keyed = indices.map((i, k) => {
      const t = at(i);
      if (Number.isFinite(t)) last = t;
      return { i, t: Number.isFinite(t) ? t : last, k };
    });
    return keyed.sort((a, b) => a.t - b.t || a.k - b.k).map((x) => x.i);
  });
}
