// numtrans: spoken numbers to digits, on what ASR really produces (lower case, no punctuation), keeping for
// every output token the indices of the words it came from, so that redaction can map a digit back to the
// time of the word that spoke it.
//
// A number phrase is a run of chunks written one after the other:
//   - a cardinal, parsed greedily: "twenty three" 23, "one hundred twenty" 120, "two thousand and five" 2005,
//     "twelve hundred" 1200, "a hundred" 100, "three million four hundred thousand" 3400000;
//   - a repeated digit: "double five" 55, "triple seven" 777, "double oh" 00;
//   - "oh"/"o" as 0, only inside a digit run (at least two other chunks in the phrase, or one on each side);
//   - a word that is already digits ("5", "2024").
// Chunks are concatenated, which gives digit strings ("four one one oh" 4110), years ("nineteen eighty four"
// 1984, "twenty oh five" 2005) and phone numbers ("eight hundred five five five ..." 800555...).
// A phrase that is one word worth less than ten stays a word ("one of them", "two kids", "the first time");
// ordinals become 21st, 12th, 100th when they are more than one word or worth ten or more.

export interface NumtransToken {
  /** Display text: the word as given, or the digits of a number phrase. */
  text: string;
  /** Indices (into the words given, plus indexOffset) of the words this token came from, ascending. */
  wordIndices: number[];
  isNumber: boolean;
}

export interface NumtransResult {
  /** The tokens' texts joined by single spaces. */
  text: string;
  tokens: NumtransToken[];
}

export interface NumtransOptions {
  /** Added to every word index (e.g. an utterance's wordStart, to index the channel's words). */
  indexOffset?: number;
}

const UNITS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9,
};
const TEENS: Record<string, number> = {
  ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
};
const TENS: Record<string, number> = {
  twenty: 20, thirty: 30, forty: 40, fourty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
};
const SCALES: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 };
const ORD_UNITS: Record<string, number> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9,
};
const ORD_TEENS: Record<string, number> = {
  tenth: 10, eleventh: 11, twelfth: 12, thirteenth: 13, fourteenth: 14, fifteenth: 15, sixteenth: 16, seventeenth: 17,
  eighteenth: 18, nineteenth: 19,
};
const ORD_TENS: Record<string, number> = {
  twentieth: 20, thirtieth: 30, fortieth: 40, fiftieth: 50, sixtieth: 60, seventieth: 70, eightieth: 80, ninetieth: 90,
};
const ORD_SCALES: Record<string, number> = { thousandth: 1e3, millionth: 1e6, billionth: 1e9 };
const OH = new Set(['oh', 'o']);
const REPEAT: Record<string, number> = { double: 2, triple: 3 };

const has = (table: Record<string, number>, word: string | undefined): word is string =>
  word !== undefined && Object.hasOwn(table, word);

const NUMBER_WORDS = new Set([
  ...Object.keys(UNITS), ...Object.keys(TEENS), ...Object.keys(TENS), ...Object.keys(SCALES), ...Object.keys(ORD_UNITS),
  ...Object.keys(ORD_TEENS), ...Object.keys(ORD_TENS), ...Object.keys(ORD_SCALES), 'hundred', 'hundredth', 'oh', 'o', 'and',
  'double', 'triple',
]);

/** One word, or one part of a hyphenated number word ("twenty-three"). */
interface Piece {
  /** Normalised: lower case, surrounding punctuation removed. */
  norm: string;
  /** The text to show when this piece stays a word. */
  display: string;
  index: number;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** A letter or number at i (a surrogate half is tested with its pair). */
function wordCharAt(word: string, i: number): boolean {
  const c = word.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff) return WORD_CHAR.test(word.slice(i, i + 2));
  if (c >= 0xdc00 && c <= 0xdfff && i > 0) return WORD_CHAR.test(word.slice(i - 1, i + 1));
  return WORD_CHAR.test(word[i]);
}

/** Lower case, surrounding punctuation trimmed (loops: a trimming regex is quadratic on a long word). */
function normalise(word: string): string {
  let from = 0;
  let to = word.length;
  while (from < to && !wordCharAt(word, from)) from++;
  while (to > from && !wordCharAt(word, to - 1)) to--;
  return word.slice(from, to).toLowerCase();
}

function piecesOf(words: readonly string[], offset: number): Piece[] {
  const pieces: Piece[] = [];
  words.forEach((word, i) => {
    const norm = normalise(word);
    const parts = norm.includes('-') ? norm.split('-').filter(Boolean) : [];
    if (parts.length > 1 && parts.every((p) => NUMBER_WORDS.has(p) && p !== 'and')) {
      for (const part of parts) pieces.push({ norm: part, display: part, index: offset + i });
    } else {
      pieces.push({ norm, display: word, index: offset + i });
    }
  });
  return pieces;
}

interface Parsed {
  value: number;
  /** Index of the first piece after the parse. */
  end: number;
  ordinal: boolean;
}

/** 0..99: "seven", "fifteen", "forty", "forty two", "twenty third". */
function belowHundred(p: readonly Piece[], i: number): Parsed | undefined {
  const w = p[i]?.norm;
  if (w === undefined) return undefined;
  if (has(TENS, w)) {
    const next = p[i + 1]?.norm;
    if (has(UNITS, next) && UNITS[next] > 0) return { value: TENS[w] + UNITS[next], end: i + 2, ordinal: false };
    if (has(ORD_UNITS, next)) return { value: TENS[w] + ORD_UNITS[next], end: i + 2, ordinal: true };
    return { value: TENS[w], end: i + 1, ordinal: false };
  }
  if (has(ORD_TENS, w)) return { value: ORD_TENS[w], end: i + 1, ordinal: true };
  if (has(TEENS, w)) return { value: TEENS[w], end: i + 1, ordinal: false };
  if (has(ORD_TEENS, w)) return { value: ORD_TEENS[w], end: i + 1, ordinal: true };
  if (has(UNITS, w)) return { value: UNITS[w], end: i + 1, ordinal: false };
  if (has(ORD_UNITS, w)) return { value: ORD_UNITS[w], end: i + 1, ordinal: true };
  return undefined;
}

/** A word that is or starts a single digit ("five", "oh", "double", "7"). */
function startsDigit(w: string | undefined): boolean {
  return w !== undefined && (has(UNITS, w) || OH.has(w) || has(REPEAT, w) || /^\d$/.test(w));
}

/** 0..9999 without a scale word: "a hundred", "three hundred and six", "twelve hundred", "hundredth". */
function belowThousand(p: readonly Piece[], i: number, allowA: boolean): (Parsed & { colloquial: boolean }) | undefined {
  const w = p[i]?.norm;
  if (w === undefined) return undefined;
  let head: Parsed | undefined;
  if (allowA && w === 'a') {
    const next = p[i + 1]?.norm;
    if (next === 'hundred' || next === 'hundredth') head = { value: 1, end: i + 1, ordinal: false };
    else if (has(SCALES, next) || has(ORD_SCALES, next)) return { value: 1, end: i + 1, ordinal: false, colloquial: false };
    else return undefined;
  } else if (w === 'hundred' || w === 'hundredth') {
    head = { value: 1, end: i, ordinal: false };
  } else {
    head = belowHundred(p, i);
  }
  if (!head) return undefined;
  const after = p[head.end]?.norm;
  if (head.ordinal || head.value < 1 || (after !== 'hundred' && after !== 'hundredth')) return { ...head, colloquial: false };
  const hundreds = head.value * 100;
  const colloquial = head.value >= 10;
  if (after === 'hundredth') return { value: hundreds, end: head.end + 1, ordinal: true, colloquial };
  let j = head.end + 1;
  if (p[j]?.norm === 'and' && belowHundred(p, j + 1)) j++;
  const tail = belowHundred(p, j);
  // "eight hundred five five five ...": a lone digit after "hundred" that starts a digit run belongs to the
  // run (a phone number, 800 555 ...), not to the hundreds.
  const startsRun = tail !== undefined && j === head.end + 1 && !tail.ordinal && tail.end === j + 1 && tail.value < 10 && startsDigit(p[tail.end]?.norm);
  if (tail && tail.value > 0 && !startsRun) return { value: hundreds + tail.value, end: tail.end, ordinal: tail.ordinal, colloquial };
  if (j > head.end + 1) j--; // an "and" not followed by a number is not ours
  return { value: hundreds, end: j, ordinal: false, colloquial };
}

/** A whole cardinal (or ordinal) with scale words: "two thousand and five", "one million two hundred thousand". */
function cardinal(p: readonly Piece[], i: number, allowA: boolean): Parsed | undefined {
  let total = 0;
  let j = i;
  let lastScale = Infinity;
  let parsedAny = false;
  for (;;) {
    const group = belowThousand(p, j, allowA && !parsedAny);
    if (!group) break;
    if (group.ordinal) return { value: total + group.value, end: group.end, ordinal: true };
    const scaleWord = p[group.end]?.norm;
    const scale = has(SCALES, scaleWord) ? SCALES[scaleWord] : has(ORD_SCALES, scaleWord) ? ORD_SCALES[scaleWord] : undefined;
    if (scale !== undefined && scale < lastScale && group.value > 0 && !group.colloquial) {
      total += group.value * scale;
      lastScale = scale;
      j = group.end + 1;
      parsedAny = true;
      if (has(ORD_SCALES, scaleWord)) return { value: total, end: j, ordinal: true };
      if (p[j]?.norm === 'and' && belowThousand(p, j + 1, false)) {
        const afterAnd = belowThousand(p, j + 1, false)!;
        const nextScale = p[afterAnd.end]?.norm;
        if (!(has(SCALES, nextScale) || has(ORD_SCALES, nextScale))) j++;
      }
      continue;
    }
    if (scale !== undefined && scale >= lastScale) {
      // "two thousand five thousand": the second group starts a number of its own.
      break;
    }
    total += group.value;
    j = group.end;
    parsedAny = true;
    break;
  }
  return parsedAny ? { value: total, end: j, ordinal: false } : undefined;
}

/** The most chunks in one number phrase. */
const MAX_CHUNKS = 64;

type ChunkKind = 'cardinal' | 'repeat' | 'oh' | 'digits' | 'ordinal';

interface Chunk {
  kind: ChunkKind;
  digits: string;
  start: number;
  end: number;
  value: number;
}

const DIGIT_WORD = (w: string | undefined): string | undefined =>
  w === undefined ? undefined : has(UNITS, w) ? String(UNITS[w]) : OH.has(w) ? '0' : undefined;

function ordinalSuffix(n: number): string {
  const mod100 = n % 100;
  if (mod100 >= 11 && mod100 <= 13) return 'th';
  return ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
}

/** The chunks of the number phrase starting at i (possibly none). */
function chunksAt(p: readonly Piece[], i: number): { chunks: Chunk[]; words: number } {
  const chunks: Chunk[] = [];
  let j = i;
  // A phrase is capped (the next one starts where it stops, and digit runs join tokens again): a phrase that
  // makes no number is looked for again one word on, which must not rescan an unbounded run.
  while (j < p.length && chunks.length < MAX_CHUNKS) {
    const w = p[j].norm;
    const repeated = has(REPEAT, w) ? DIGIT_WORD(p[j + 1]?.norm) : undefined;
    if (repeated !== undefined) {
      chunks.push({ kind: 'repeat', digits: repeated.repeat(REPEAT[w]), start: j, end: j + 2, value: Number(repeated) });
      j += 2;
      continue;
    }
    if (OH.has(w)) {
      chunks.push({ kind: 'oh', digits: '0', start: j, end: j + 1, value: 0 });
      j++;
      continue;
    }
    if (/^\d+$/.test(w)) {
      chunks.push({ kind: 'digits', digits: w, start: j, end: j + 1, value: Number(w) });
      j++;
      continue;
    }
    const parsed = cardinal(p, j, chunks.length === 0);
    if (!parsed) break;
    if (parsed.ordinal) {
      // An ordinal is a phrase of its own ("twenty third"); after a digit run it starts the next phrase.
      if (chunks.length === 0) chunks.push({ kind: 'ordinal', digits: `${parsed.value}${ordinalSuffix(parsed.value)}`, start: j, end: parsed.end, value: parsed.value });
      break;
    }
    chunks.push({ kind: 'cardinal', digits: String(parsed.value), start: j, end: parsed.end, value: parsed.value });
    j = parsed.end;
  }
  // "oh" is a digit only inside a digit run: with fewer than two other chunks, drop it from the ends.
  const others = chunks.filter((c) => c.kind !== 'oh').length;
  if (others < 2) {
    let from = 0;
    let to = chunks.length;
    while (from < to && chunks[from].kind === 'oh') from++;
    while (to > from && chunks[to - 1].kind === 'oh') to--;
    // Leading "oh"s stay words (a phrase starting at any of them drops them again): the phrase is looked for
    // again after them.
    if (from > 0) return { chunks: [], words: chunks[from - 1].end - i };
    return { chunks: chunks.slice(from, to), words: 1 };
  }
  return { chunks, words: 1 };
}

/** True when a phrase of these chunks is written as a number (not a lone small number word). */
function writesAsNumber(chunks: readonly Chunk[]): boolean {
  if (chunks.length === 0) return false;
  if (chunks.length > 1) return true;
  const [only] = chunks;
  if (only.kind === 'digits' || only.kind === 'repeat') return true;
  if (only.end - only.start > 1) return true;
  return only.value >= 10;
}

const NO_CHUNKS = { chunks: [] as Chunk[], words: 1 };
const DIGITS = /^\d+$/;
/** A word no chunk starts with (chunksAt reads only number words, digits and "a" first). */
const startsNoNumber = (w: string) => !NUMBER_WORDS.has(w) && w !== 'a' && !DIGITS.test(w);

/** Spoken numbers to digits, keeping which words every token came from. */
export function numtrans(words: readonly (string | { word: string })[], options: NumtransOptions = {}): NumtransResult {
  const texts = words.map((w) => (typeof w === 'string' ? w : w.word));
  const p = piecesOf(texts, options.indexOffset ?? 0);
  const tokens: NumtransToken[] = [];
  let i = 0;
  while (i < p.length) {
    // Most words cannot start a number (no number word, no digits, not "a" of "a hundred"): chunksAt would find
    // no chunk and leave one word, so it is not asked (it costs most of numtrans on ordinary text).
    const { chunks, words: stay } = startsNoNumber(p[i].norm) ? NO_CHUNKS : chunksAt(p, i);
    if (writesAsNumber(chunks)) {
      const end = chunks[chunks.length - 1].end;
      const indices = [...new Set(p.slice(i, end).map((piece) => piece.index))];
      tokens.push({ text: chunks.map((c) => c.digits).join(''), wordIndices: indices, isNumber: true });
      i = end;
      continue;
    }
    // A word stays a word; the parts of a hyphenated number word that made no number are joined back.
    for (const end = Math.min(p.length, i + Math.max(1, stay)); i < end; i++) {
      const piece = p[i];
      const previous = tokens[tokens.length - 1];
      if (previous && !previous.isNumber && previous.wordIndices[0] === piece.index) previous.text += `-${piece.display}`;
      else tokens.push({ text: piece.display, wordIndices: [piece.index], isNumber: false });
    }
  }
  return { text: tokens.map((t) => t.text).join(' '), tokens };
}
