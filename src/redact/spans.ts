// What to redact in one piece of text or one word list, from every source at once, in one precedence order:
//   1. the record's ignore (allow-list) values: their words are never redacted, whoever finds them;
//   2. the record's own values (redactionTypes rules with a `value`, contentGroups items without `ignore`),
//      with their line/before/after context;
//   3. recognizer detections of the kinds switched on: a record rule with an empty value and a built-in
//      `type` (its mask and confidence floor), else the project rule, else the request's type.
// Kinds are restricted before overlaps are looked at; overlapping spans are merged into one (coverage is the
// union: nothing between them can leak) and reported under the highest precedence source among them, then the
// most confident. A record pattern that cannot be matched fails closed (the whole doc under its rule).
import { detectAll, type Detection } from './detect.js';
import type { EntityKind } from './entityKinds.js';
import type { MaskRule } from './masks.js';
import { findPattern, type Pattern, type WordRange } from './patterns.js';
import type { Doc } from './recognizers/doc.js';
import { builtInKind, type RecordMask, type RecordRules } from './recordRules.js';
import { defaultLabel, type RedactionRule } from './rules.js';

export interface RedactionSpan {
  /** Characters [start, end) of doc.text. */
  start: number;
  end: number;
  /** Words [wordStart, wordEnd) of the doc. */
  wordStart: number;
  wordEnd: number;
  rule: MaskRule;
  confidence: number;
  /**
   * The values in the span as the rule recognizers alone find them (overlapping findings merged): what a record
   * remembers to mask wherever else it appears (recordRedactor.ts). An additive finding (the tagger) widens what
   * is masked, never what is remembered, so a value is looked for as it would be without it. Absent: the span.
   */
  values?: SpanValue[];
}

/** A value inside a span: characters [start, end) and words [wordStart, wordEnd) of the doc. */
export interface SpanValue {
  start: number;
  end: number;
  wordStart: number;
  wordEnd: number;
  confidence: number;
}

/**
 * What the passes over one record share (building a doc and detecting in it are pure): detections by doc and
 * kinds, and the docs themselves by their input (the second pass reads the same texts and word lists again).
 */
export class DetectionCache {
  readonly detections = new Map<string, Detection[]>();
  private readonly docs = new Map<string, Doc>();

  /** The doc of written text `text` (docFromText with default options), built once. */
  textDoc(text: string, build: () => Doc): Doc {
    return this.doc(`t\u0000${text}`, build);
  }

  /** The doc of a word list (docFromWords with default options), built once. */
  wordsDoc(words: readonly string[], build: () => Doc): Doc {
    return this.doc(`w\u0000${JSON.stringify(words)}`, build);
  }

  private doc(key: string, build: () => Doc): Doc {
    let doc = this.docs.get(key);
    if (!doc) {
      doc = build();
      this.docs.set(key, doc);
    }
    return doc;
  }
}

export interface SpanOptions {
  /** Word indices where a new line (utterance, sentence) starts; the whole doc is one line by default. */
  lineStarts?: readonly number[];
  /** Detections (and docs) already made: the passes over one record share them. */
  detections?: DetectionCache;
}

/** detectAll of the doc for these kinds, from `cache` when the same doc was looked at before. */
function detections(doc: Doc, kinds: EntityKind[], cache?: DetectionCache): Detection[] {
  const run = () => detectAll(doc, { ...doc.options, kinds });
  if (!cache) return run();
  const key = [kinds.join(','), doc.spoken ? 'w' : 't', JSON.stringify(doc.options), doc.words.map((w) => w.start).join(','), doc.text].join('\u0000');
  const hit = cache.detections.get(key) ?? run();
  cache.detections.set(key, hit);
  return hit;
}

/** A record mask completed from the kind's other mask (when the same type) or the kind's defaults. */
export function completeMask(kind: string, mask: RecordMask, base?: MaskRule): MaskRule {
  const maskType = mask.maskType ?? base?.maskType ?? 'Placeholder';
  const fallback = maskType === 'MaskCharacter' ? '*' : defaultLabel(kind);
  return { kind, maskType, setting: mask.setting ?? (base?.maskType === maskType ? base.setting : fallback) };
}

/** The kinds recognizers redact, each with its mask and confidence floor: record rules beat project/request. */
export function kindRules(rules: readonly RedactionRule[], custom?: RecordRules): Map<EntityKind, { rule: MaskRule; minConfidence: number }> {
  const out = new Map<EntityKind, { rule: MaskRule; minConfidence: number }>();
  for (const rule of rules) out.set(rule.kind, { rule, minConfidence: 0 });
  for (const k of custom?.kinds ?? []) out.set(k.kind, { rule: completeMask(k.kind, k.mask, out.get(k.kind)?.rule), minConfidence: k.minConfidence });
  return out;
}

/** Which words of the doc are allow-listed (the record's content items with `ignore: true`). */
export function ignoredWords(doc: Doc, custom?: RecordRules): boolean[] {
  const ignored = new Array<boolean>(doc.words.length).fill(false);
  for (const pattern of custom?.ignore ?? []) {
    // An allow-list pattern that cannot be matched allows nothing.
    for (const r of matchesOrNone(doc, pattern)) ignored.fill(true, r.wordStart, r.wordEnd);
  }
  return ignored;
}

function matchesOrNone(doc: Doc, pattern: Pattern): WordRange[] {
  try {
    return findPattern(doc, pattern);
  } catch {
    return [];
  }
}

/** The first index of sorted `starts` whose value is above `word`, minus one: the line holding `word`. */
function lineIndex(starts: readonly number[], word: number): number {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid] <= word) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

function allIgnored(ignored: readonly boolean[], from: number, to: number): boolean {
  for (let w = from; w < to; w++) if (!ignored[w]) return false;
  return true;
}

interface Candidate extends RedactionSpan {
  /** 0: the record's own values; 1: recognizers. */
  rank: number;
  /** From a detector that only adds to what the rules mask (Detection.additive). */
  additive: boolean;
}

/** Candidates sorted by start, overlapping ones merged: their union, under the best (rank, then confidence). */
function mergeOverlapping(sorted: readonly Candidate[]): Candidate[] {
  const merged: Candidate[] = [];
  for (const p of sorted) {
    const last = merged[merged.length - 1];
    if (last && (p.start < last.end || p.wordStart < last.wordEnd)) {
      const better = p.rank < last.rank || (p.rank === last.rank && p.confidence > last.confidence);
      merged[merged.length - 1] = {
        ...(better ? p : last),
        start: Math.min(last.start, p.start),
        end: Math.max(last.end, p.end),
        wordStart: Math.min(last.wordStart, p.wordStart),
        wordEnd: Math.max(last.wordEnd, p.wordEnd),
      };
    } else {
      merged.push(p);
    }
  }
  return merged;
}

export function findSpans(doc: Doc, rules: readonly RedactionRule[], custom?: RecordRules, options: SpanOptions = {}): RedactionSpan[] {
  const n = doc.words.length;
  if (n === 0) return [];
  const kinds = kindRules(rules, custom);
  const ignored = ignoredWords(doc, custom);
  const lineStarts = [...new Set([0, ...(options.lineStarts ?? [])])].filter((i) => i >= 0 && i < n).sort((a, b) => a - b);
  const lineOf = (word: number) => {
    const k = lineIndex(lineStarts, word);
    return { start: lineStarts[k], end: lineStarts[k + 1] ?? n };
  };
  const chars = (wordStart: number, wordEnd: number) => ({ start: doc.words[wordStart].start, end: Math.max(doc.words[wordStart].start, doc.words[wordEnd - 1].end) });

  const candidates: Candidate[] = [];
  for (const phrase of custom?.phrases ?? []) {
    const builtIn = builtInKind(phrase.kind);
    const rule = completeMask(phrase.kind, phrase.mask, builtIn && kinds.get(builtIn)?.rule);
    let matches: WordRange[];
    try {
      matches = findPattern(doc, phrase.pattern, lineStarts);
    } catch {
      // Fail closed: a value the record asked to redact that cannot be looked for redacts the whole doc.
      matches = [{ wordStart: 0, wordEnd: n }];
    }
    for (const match of matches) {
      // A match made only of allow-listed words is no match: its context is not redacted either.
      if (allIgnored(ignored, match.wordStart, match.wordEnd)) continue;
      const line = lineOf(match.wordStart);
      const wordStart = phrase.redactLine ? line.start : Math.max(line.start, match.wordStart - phrase.before);
      const wordEnd = phrase.redactLine ? lineOf(match.wordEnd - 1).end : Math.min(line.end, Math.max(match.wordEnd, match.wordEnd + phrase.after));
      candidates.push({ ...chars(wordStart, wordEnd), wordStart, wordEnd, rule, confidence: 1, rank: 0, additive: false });
    }
  }
  if (kinds.size > 0) {
    // Only the kinds asked for are detected, before any overlap is resolved; floors (the digit safety net, a
    // recognizer that failed closed) pass every confidence threshold.
    for (const d of detections(doc, [...kinds.keys()], options.detections)) {
      const kind = kinds.get(d.kind);
      if (!kind || (!d.floor && d.confidence < kind.minConfidence) || d.wordStart === undefined || d.wordEnd === undefined) continue;
      candidates.push({ start: d.start, end: d.end, wordStart: d.wordStart, wordEnd: d.wordEnd, rule: kind.rule, confidence: d.confidence, rank: 1, additive: d.additive === true });
    }
  }

  // Allow-listed words are cut out of every span; what is left of a span on either side stays redacted.
  const pieces: Candidate[] = [];
  for (const c of candidates) {
    let w = c.wordStart;
    while (w < c.wordEnd) {
      while (w < c.wordEnd && ignored[w]) w++;
      const from = w;
      while (w < c.wordEnd && !ignored[w]) w++;
      if (w === from) continue;
      pieces.push({
        ...c,
        wordStart: from,
        wordEnd: w,
        start: from === c.wordStart ? c.start : doc.words[from].start,
        end: w === c.wordEnd ? c.end : doc.words[w - 1].end,
      });
    }
  }

  pieces.sort((a, b) => a.start - b.start || a.wordStart - b.wordStart);
  // What is masked: every finding. The values: what the rule recognizers alone found, merged the same way (the
  // record's own values are looked for everywhere anyway, and the words their context takes are no value); each
  // lies inside one merged span (merging more pieces only joins spans), the last starting at or before it.
  const alone = mergeOverlapping(pieces.filter((p) => p.rank === 1 && !p.additive));
  const merged = mergeOverlapping(pieces);
  let k = 0;
  return merged.map(({ rank: _rank, additive: _additive, ...span }, m) => {
    const values: SpanValue[] = [];
    for (; k < alone.length && (m + 1 === merged.length || alone[k].start < merged[m + 1].start); k++) {
      const { start, end, wordStart, wordEnd, confidence } = alone[k];
      values.push({ start, end, wordStart, wordEnd, confidence });
    }
    return { ...span, values };
  });
}
