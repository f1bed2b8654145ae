// Number-shaped speech: runs of words that are, or are often what the recognizer makes of, spoken digits
// ("four one won ate for two oh ..."), hesitations allowed inside. A run counts digits for deciding a window;
// nothing here ever narrows one.
import { normalizeWord } from './phonetic.js';

/** Words that are digits as said. */
const DIGIT_WORDS = new Set([
  'zero', 'oh', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine',
  'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen',
  'twenty', 'thirty', 'forty', 'fourty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety',
  'hundred', 'thousand', 'double', 'triple', 'niner',
]);

/** What the recognizer often hears for a digit; also ordinary words, so they count only beside real ones. */
const DIGIT_LOOKALIKES = new Set([
  'o', 'for', 'fore', 'to', 'too', 'won', 'ate', 'nein', 'tree', 'free', 'fife', 'sex', 'sics', 'sicks',
  'seben', 'ei', 'hero', 'nought', 'naught', 'wan', 'tu', 'fo', 'fi', 'fie', 'sick', 'ain', 'teen',
  // Heard by the bundled engine for "nine" in a card number read alone (festival speech, issue 19's stream tests).
  'mine',
  // Heard for "five", "four", "two" in card, SSN and account numbers on a noisy 8 kHz line (eval/number-homophones.ts, issue 31).
  'fire', 'force', 'forth', 'due',
]);

const MAGNITUDES = new Set(['hundred', 'thousand']);

/** Hesitations and fillers: allowed inside a run, counted for nothing. */
const FILLERS = new Set(['uh', 'um', 'er', 'erm', 'ah', 'hmm', 'mm', 'uhm', 'eh', 'and', 'dash', 'space']);

export type NumberWordClass = 'digit' | 'lookalike' | 'filler' | 'other';

export function numberWordClass(word: string): NumberWordClass {
  const w = normalizeWord(word);
  if (w === '') return 'filler';
  if (/^[0-9]+$/.test(w)) return 'digit';
  if (DIGIT_WORDS.has(w)) return 'digit';
  if (DIGIT_LOOKALIKES.has(w)) return 'lookalike';
  if (FILLERS.has(w)) return 'filler';
  return 'other';
}

/** How many digits a number-like word stands for ("4111" is four; every spoken word is one). */
export function digitCount(word: string): number {
  const w = normalizeWord(word);
  return /^[0-9]+$/.test(w) ? w.length : 1;
}

export interface TimedWord {
  word: string;
  start: number;
  end: number;
  confidence?: number;
}

/** A run of number-shaped speech in one party's words. */
export interface NumberRun {
  /** Indexes of the first and last number-like word in the given list. */
  first: number;
  last: number;
  start: number;
  end: number;
  /** Number-like words (digit strings count their digits). */
  length: number;
  /** Of them, words that are digits as said (not look-alikes). */
  digits: number;
  /** Of them, "hundred" and "thousand": an amount ("four hundred fifty"), rarely a digit string read out. */
  magnitudes: number;
}

export interface NumberRunOptions {
  /** The longest pause inside a run, in seconds (groups read with a breath between them stay one run). */
  maxGapSeconds?: number;
}

/**
 * Runs of number-like words, fillers allowed inside (not at the ends). Runs with no real digit word at all are
 * dropped ("to four" has one; "for to" has none), so ordinary speech made of look-alikes forms no run.
 */
export function numberRuns(words: readonly TimedWord[], options: NumberRunOptions = {}): NumberRun[] {
  const maxGap = options.maxGapSeconds ?? 3;
  const runs: NumberRun[] = [];
  let run: NumberRun | undefined;
  const close = () => {
    if (run && run.digits > 0) runs.push(run);
    run = undefined;
  };
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const cls = numberWordClass(w.word);
    if (cls === 'other') {
      close();
      continue;
    }
    if (cls === 'filler') continue;
    if (run && w.start - run.end > maxGap) close();
    const count = digitCount(w.word);
    if (!run) run = { first: i, last: i, start: w.start, end: w.end, length: 0, digits: 0, magnitudes: 0 };
    run.last = i;
    run.end = Math.max(run.end, w.end);
    run.length += count;
    if (cls === 'digit') run.digits += count;
    if (MAGNITUDES.has(normalizeWord(w.word))) run.magnitudes++;
  }
  close();
  return runs;
}
