// The formatted text of an utterance (resource 11 formattedText, text output, subtitles): numtrans when asked,
// and with punctuate a capital at the start, "I" capitalised and a full stop at the end. Tokens keep the
// indices of the words they came from, so a cue or a redaction span can be timed from the words.
import { numtrans, type NumtransResult, type NumtransToken } from './numtrans.js';

export interface FormatOptions {
  numtrans?: boolean;
  punctuate?: boolean;
  /** Added to every word index (e.g. the utterance's wordStart). */
  indexOffset?: number;
}

const FIRST_PERSON = /^i('(m|ll|ve|d|s))?$/;

/** Words to display tokens: one token per word, or per number phrase when numtrans is on. */
export function formatWords(words: readonly (string | { word: string })[], options: FormatOptions = {}): NumtransResult {
  const offset = options.indexOffset ?? 0;
  let tokens: NumtransToken[];
  if (options.numtrans) {
    tokens = numtrans(words, { indexOffset: offset }).tokens;
  } else {
    tokens = words.map((w, i) => ({ text: typeof w === 'string' ? w : w.word, wordIndices: [offset + i], isNumber: false }));
  }
  if (options.punctuate && tokens.length > 0) {
    tokens = tokens.map((t) => (FIRST_PERSON.test(t.text) ? { ...t, text: `I${t.text.slice(1)}` } : t));
    const first = tokens[0];
    tokens[0] = { ...first, text: first.text.charAt(0).toUpperCase() + first.text.slice(1) };
    const last = tokens[tokens.length - 1];
    if (!/[.?!]$/.test(last.text)) tokens[tokens.length - 1] = { ...last, text: `${last.text}.` };
  }
  return { text: tokens.map((t) => t.text).join(' '), tokens };
}
