// sherpa-onnx's tokens with their times → the transcript's words. A token that begins with a space (BPE's `▁`,
// shown by sherpa-onnx as ' ') starts a new word. CTC models give each token's first frame but no end: a word
// ends a little after its last token, never past the next word's start — erring wide, which is the safe side
// for audio redaction. TDT transducers give durations and their ends are used as given.
import type { Word } from '../../transcript/types.js';

export interface TokenResult {
  text: string;
  tokens: string[];
  timestamps: number[];
  durations?: number[];
  ys_log_probs?: number[];
}

/** How long after its last token's first frame a word is taken to go on when the model gives no durations (s). */
const TAIL_SECONDS = 0.5;

/** Lower case, no punctuation around the word (inside stays: "don't", "5.50", "john.smith@example.com"). */
export function normalizeWord(raw: string): string {
  return raw
    .toLowerCase()
    .replace(/^[^\p{L}\p{N}]+/u, '')
    .replace(/[^\p{L}\p{N}]+$/u, '');
}

/** The words of the text alone (for models without token times: aligned afterwards). */
export function wordsOfText(text: string): string[] {
  return text.split(/\s+/).map(normalizeWord).filter((w) => w !== '');
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/**
 * Words with times in seconds from the start of the unit's audio (`unitEnd` caps the last word), or undefined when
 * the result has no token times (the caller aligns the text instead).
 */
export function wordsFromTokens(result: TokenResult, unitEnd: number): Word[] | undefined {
  const { tokens, timestamps } = result;
  if (tokens.length === 0) return [];
  if (timestamps.length !== tokens.length) return undefined;
  const durations = result.durations?.length === tokens.length ? result.durations : undefined;
  const scores = result.ys_log_probs?.length === tokens.length ? result.ys_log_probs : undefined;
  const groups: number[][] = [];
  tokens.forEach((token, i) => {
    if (groups.length === 0 || /^[\s▁]/.test(token)) groups.push([i]);
    else groups[groups.length - 1].push(i);
  });
  const words: Word[] = [];
  groups.forEach((group, g) => {
    const word = normalizeWord(group.map((i) => tokens[i]).join('').replace(/▁/g, ' ').trim());
    if (!word) return;
    const first = group[0];
    const last = group[group.length - 1];
    const start = timestamps[first];
    const nextStart = g + 1 < groups.length ? timestamps[groups[g + 1][0]] : unitEnd;
    const end = durations ? timestamps[last] + durations[last] : Math.min(nextStart, unitEnd, timestamps[last] + TAIL_SECONDS);
    const confidence = scores ? Math.exp(group.reduce((s, i) => s + scores[i], 0) / group.length) : 1;
    words.push({ word, start: round3(start), end: round3(Math.max(start, Math.min(end, unitEnd))), confidence: round3(Math.min(1, Math.max(0, confidence))) });
  });
  return words;
}
