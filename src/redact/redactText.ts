// Redaction of free text and of word lists with the same rules and masker as transcripts: used on the
// text-bearing fields of conversation records (utterances, vendor transcripts, insight lines...). What is
// redacted, and in which precedence, is spans.ts's: project/request rules plus the record's own rules.
import type { Masker, MaskRule } from './masks.js';
import { docFromText, docFromWords, type Doc } from './recognizers/doc.js';
import type { RecordRules } from './recordRules.js';
import { defaultLabel, type RedactionRule } from './rules.js';
import { findSpans, type RedactionSpan, type SpanOptions, type SpanValue } from './spans.js';

export interface FoundSpan {
  rule: MaskRule;
  /** What now stands in the text ('' when removed). */
  replacement: string;
  confidence: number;
  /** Characters into the redacted text where the replacement stands, and its length. */
  offset: number;
  length: number;
}

export interface TextRedaction {
  text: string;
  found: FoundSpan[];
}

const nothing = (rules: readonly RedactionRule[], custom?: RecordRules) =>
  rules.length === 0 && !custom?.phrases.length && !custom?.kinds.length;

/**
 * The spans of a doc built from the input; should building the doc or finding spans ever throw, the whole input
 * is one span under the first rule asked for (fail closed: never less redaction, never a throw).
 */
function spansOrAll(build: () => Doc, rules: readonly RedactionRule[], custom: RecordRules | undefined, whole: { end: number; words: number }, options?: SpanOptions): RedactionSpan[] {
  try {
    return findSpans(build(), rules, custom, options);
  } catch {
    const rule = rules[0] ?? (custom?.kinds[0] && { kind: custom.kinds[0].kind, maskType: 'Placeholder' as const, setting: defaultLabel(custom.kinds[0].kind) }) ?? { kind: 'Custom', maskType: 'Placeholder' as const, setting: defaultLabel('Custom') };
    return whole.end > 0 || whole.words > 0 ? [{ start: 0, end: whole.end, wordStart: 0, wordEnd: whole.words, rule, confidence: 1 }] : [];
  }
}

/** Replace every span to redact in `text` by its mask. */
export function redactText(text: string, rules: readonly RedactionRule[], masker: Masker, custom?: RecordRules): TextRedaction {
  if (nothing(rules, custom)) return { text, found: [] };
  let out = '';
  let at = 0;
  const found: FoundSpan[] = [];
  for (const span of spansOrAll(() => docFromText(text), rules, custom, { end: text.length, words: 0 })) {
    const replacement = masker.mask(span.rule, text.slice(span.start, span.end));
    out += text.slice(at, span.start);
    // Where the mask stands in the redacted text (the original offsets would point into text that is gone).
    found.push({ rule: span.rule, replacement, confidence: span.confidence, offset: out.length, length: replacement.length });
    out += replacement;
    at = span.end;
  }
  return { text: out + text.slice(at), found };
}

export interface WordSpan {
  wordStart: number;
  wordEnd: number;
  rule: MaskRule;
  confidence: number;
  /** The values in it as the rules alone find them (RedactionSpan.values). */
  values?: SpanValue[];
}

/** Spans (word indices) to redact in a word list, disjoint and in order. */
export function wordSpans(words: readonly string[], rules: readonly RedactionRule[], custom?: RecordRules, options?: SpanOptions): WordSpan[] {
  if (nothing(rules, custom)) return [];
  const cache = options?.detections;
  const build = () => (cache ? cache.wordsDoc(words, () => docFromWords(words)) : docFromWords(words));
  return spansOrAll(build, rules, custom, { end: words.join(' ').length, words: words.length }, options).map(({ wordStart, wordEnd, rule, confidence, values }) => ({ wordStart, wordEnd, rule, confidence, values }));
}
