// Stable-prefix finals of long unpaused speech (issue 33), as pure stages: the final-pass decoder decodes a
// growing window of the open phrase again and again (pocketsphinx/streamDecoder.ts); the words two successive
// passes agree on (same words, same ends, none near the earlier window's cut) are as the batch decode of the whole
// phrase would have them, and those whose end is about to be `maxDelay` old go out as a final before the
// utterance ends. Words are never cut (a prefix ends at a word's end both passes agree on) and never sent twice
// (the decoder moves its window past them).
//
// Redaction sees a prefix final like any final (stream/liveRedactor.ts, with the earlier finals as context), but
// a number or a name said across the boundary would be redacted in two pieces, so a boundary is never put next
// to a spoken digit (or a look-alike or filler beside one) or inside a name cue's reach: it is held back to an earlier word (the words wait for the
// next prefix or the utterance's end: later, never less protected).
import { numberWordClass } from '../redact/windows/numberSpeech.js';
import type { Word } from '../transcript/types.js';

/** Seconds within which two passes' ends of the same word count as the same. */
export const SAME_END_SECONDS = 0.05;
/** A word ending this close (s) to the earlier pass's window end may have been cut by it: not yet agreed. */
export const CUT_GUARD_SECONDS = 0.3;
export { MAX_DELAY_RANGE } from '../schema/resources/streamMessages.js';

/** Name cues (as stream/liveRedactor.ts holds partials after them): a boundary within NAME_REACH words after one is held back. */
const NAME_CUES = [['my', 'name', 'is'], ['name', 'is'], ['names'], ["name's"], ['this', 'is'], ['i', 'am'], ["i'm"], ['speaking', 'with'], ['spelled']];
const NAME_REACH = 3;

/** One pass over a window of the open phrase: its words (stream seconds) and where its window ended. */
export interface PrefixPass {
  from: number;
  windowEnd: number;
  words: readonly Word[];
}

/**
 * How many of `next`'s first words `prev` (an earlier pass from the same start over a shorter window) agrees
 * with: the same word, ending at the same time, and ending before the earlier window's cut guard.
 */
export function agreedCount(prev: PrefixPass, next: PrefixPass): number {
  if (prev.from !== next.from) return 0;
  let n = 0;
  while (
    n < prev.words.length &&
    n < next.words.length &&
    prev.words[n].word === next.words[n].word &&
    Math.abs(prev.words[n].end - next.words[n].end) <= SAME_END_SECONDS &&
    next.words[n].end <= prev.windowEnd - CUT_GUARD_SECONDS
  )
    n++;
  return n;
}

/**
 * Whether words[i] may be part of a spoken number: a digit, or a digit look-alike or filler beside one ("for four
 * two", "one and two"); a look-alike alone ("wait for me") is an ordinary word, as the redactor counts them.
 */
function numberish(words: readonly Word[], i: number): boolean {
  const word = words[i];
  if (word === undefined) return false;
  const kind = numberWordClass(word.word);
  if (kind === 'digit') return true;
  if (kind === 'other') return false;
  const digit = (j: number) => words[j] !== undefined && numberWordClass(words[j].word) === 'digit';
  return digit(i - 1) || digit(i + 1);
}

/**
 * The most words (≤ `count`) of `words` that may end a prefix final: no boundary beside a number-like word on
 * either side, none within NAME_REACH words after a name cue. `before`: earlier words of the utterance (context
 * for cues that end just before the prefix). 0: hold everything back.
 */
export function safeCut(words: readonly Word[], count: number, before: readonly Word[] = []): number {
  const all = [...before, ...words];
  const shift = before.length;
  const lower = all.map((w) => w.word.toLowerCase());
  const afterCue = new Array<boolean>(all.length).fill(false);
  for (let i = 0; i < lower.length; i++) {
    for (const cue of NAME_CUES) {
      if (!cue.every((c, k) => lower[i + k] === c)) continue;
      // The cue itself, and the words after it, may be a name being given.
      for (let j = i; j < i + cue.length + NAME_REACH && j < all.length; j++) afterCue[j] = true;
    }
  }
  let cut = Math.min(count, words.length);
  // `cut` words go: the boundary lies between words[cut - 1] and words[cut] (unknown when cut = words.length:
  // then only the word before it can be judged, and a number-like one holds it back).
  while (cut > 0 && (numberish(words, cut - 1) || numberish(words, cut) || afterCue[shift + cut - 1])) cut--;
  return cut;
}

/**
 * How many of the decided words (oldest first) are due: waiting for the next chance to send them (`nextChance`
 * seconds from now, plus `passSeconds` of work then) would take one past `maxDelay` from its end. `age(w)`: how
 * long ago (s) the word ended. Words are due oldest first, so this is a count from the start.
 */
export function dueCount(words: readonly Word[], age: (w: Word) => number, nextChance: number, passSeconds: number, maxDelay: number): number {
  let n = 0;
  for (let i = 0; i < words.length; i++) if (age(words[i]) + nextChance + passSeconds >= maxDelay) n = i + 1;
  return n;
}
