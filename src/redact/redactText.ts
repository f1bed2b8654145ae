// Redaction of free text and of word lists with the same rules and masker as transcripts: used on the
// text-bearing fields of conversation records (utterances, vendor transcripts, insight lines...).
import { detectText, detectWords } from './detect.js';
import type { Masker } from './masks.js';
import type { RedactionRule } from './rules.js';
import type { Detection } from './types.js';

export interface TextRedaction {
  text: string;
  found: Detection[];
}

/** Replace every detected span of a ruled kind in `text` by its mask. */
export function redactText(text: string, rules: readonly RedactionRule[], masker: Masker): TextRedaction {
  const byKind = new Map(rules.map((r) => [r.kind, r]));
  const found = detectText(text).filter((d) => byKind.has(d.kind)).sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  const kept: Detection[] = [];
  for (const d of found) {
    if (d.start < at) continue;
    out += text.slice(at, d.start) + masker.mask(byKind.get(d.kind)!, text.slice(d.start, d.end));
    at = d.end;
    kept.push(d);
  }
  return { text: out + text.slice(at), found: kept };
}

export interface WordSpan {
  wordStart: number;
  wordEnd: number;
  rule: RedactionRule;
  detection: Detection;
}

/** Detected spans (word indices) of ruled kinds in a word list, overlaps merged. */
export function wordSpans(words: readonly string[], rules: readonly RedactionRule[]): WordSpan[] {
  const byKind = new Map(rules.map((r) => [r.kind, r]));
  const found = detectWords(words)
    .filter((d) => byKind.has(d.kind) && d.wordStart !== undefined && d.wordEnd !== undefined)
    .sort((a, b) => a.wordStart! - b.wordStart!);
  const spans: WordSpan[] = [];
  for (const d of found) {
    const last = spans[spans.length - 1];
    if (last && d.wordStart! < last.wordEnd) last.wordEnd = Math.max(last.wordEnd, d.wordEnd!);
    else spans.push({ wordStart: d.wordStart!, wordEnd: d.wordEnd!, rule: byKind.get(d.kind)!, detection: d });
  }
  return spans;
}
