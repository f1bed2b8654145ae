// Fuzzy, phonetic matching of short cue phrases against recognized words. The recognizer mishears the cue
// itself ("can i have the cart number", "your soshul", "date of bird"), so a word matches a cue word by exact
// text, by a small Metaphone-like sound key, or by a small edit distance; a phrase matches a run of words when
// its content words all match (one may be missing in a long phrase), tolerating one inserted word.

/** Normalizes a recognized or configured word: lower case, letters and digits only ("what's" -> "whats"). */
export function normalizeWord(word: string): string {
  return word.toLowerCase().replace(/[^a-z0-9]/g, '');
}

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);
const isVowel = (c: string | undefined) => c !== undefined && VOWELS.has(c);

/**
 * A compact Metaphone-like key: consonant sounds only (a leading vowel kept as 'A'), so words that sound
 * alike share a key: social/soshul -> SXL, card/cart -> KRT, birth -> BR0, bird -> BRT (one apart).
 */
export function phoneticKey(input: string): string {
  let w = normalizeWord(input).replace(/[0-9]/g, '');
  if (w === '') return '';
  // Silent or altered openings.
  if (/^(kn|gn|pn|wr|ps)/.test(w)) w = w.slice(1);
  if (w.startsWith('x')) w = 's' + w.slice(1);
  if (w.startsWith('wh')) w = 'w' + w.slice(2);
  let out = '';
  for (let i = 0; i < w.length; i++) {
    const c = w[i];
    const next = w[i + 1];
    const prev = w[i - 1];
    let code = '';
    if (isVowel(c)) {
      code = i === 0 ? 'A' : '';
    } else {
      switch (c) {
        case 'b':
          code = prev === 'm' && i === w.length - 1 ? '' : 'B';
          break;
        case 'c':
          if (next === 'i' && w[i + 2] === 'a') code = 'X';
          else if (next === 'h') {
            code = 'X';
            i++;
          } else if (next === 'k') {
            code = 'K';
            i++;
          } else if (next === 'e' || next === 'i' || next === 'y') code = 'S';
          else code = 'K';
          break;
        case 'd':
          if (next === 'g' && (w[i + 2] === 'e' || w[i + 2] === 'i' || w[i + 2] === 'y')) {
            code = 'J';
            i++;
          } else code = 'T';
          break;
        case 'g':
          if (next === 'h') {
            // "gh" is silent (night) or f (laugh): dropped either way, it rarely carries the word.
            code = '';
            i++;
          } else if (next === 'n' && (i + 2 === w.length || (w[i + 2] === 'e' && w[i + 3] === 'd'))) code = '';
          else if (next === 'e' || next === 'i' || next === 'y') code = 'J';
          else code = 'K';
          break;
        case 'h':
          code = isVowel(next) && !'csptg'.includes(prev ?? '') ? 'H' : '';
          break;
        case 'k':
          code = prev === 'c' ? '' : 'K';
          break;
        case 'p':
          if (next === 'h') {
            code = 'F';
            i++;
          } else code = 'P';
          break;
        case 'q':
          code = 'K';
          break;
        case 's':
          if (next === 'h') {
            code = 'X';
            i++;
          } else if (next === 'i' && (w[i + 2] === 'o' || w[i + 2] === 'a')) code = 'X';
          else code = 'S';
          break;
        case 't':
          if (next === 'i' && (w[i + 2] === 'o' || w[i + 2] === 'a')) code = 'X';
          else if (next === 'h') {
            code = '0';
            i++;
          } else if (next === 'c' && w[i + 2] === 'h') code = '';
          else code = 'T';
          break;
        case 'v':
          code = 'F';
          break;
        case 'w':
        case 'y':
          code = isVowel(next) ? c.toUpperCase() : '';
          break;
        case 'x':
          code = 'KS';
          break;
        case 'z':
          code = 'S';
          break;
        default:
          code = c.toUpperCase();
      }
    }
    // Doubled sounds collapse (number/nummber, soshul/sosshul).
    if (code !== '' && out.endsWith(code)) continue;
    out += code;
  }
  return out;
}

/** Levenshtein distance, stopping early once it exceeds `limit` (returns limit + 1 then). */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > limit) return limit + 1;
    prev = cur;
  }
  return prev[b.length];
}

/** A cue word prepared once: its text and sound key. */
export interface CueWord {
  text: string;
  key: string;
  /** Function words ("the", "your", "can") count less and may be missing or misheard. */
  content: boolean;
}

const FUNCTION_WORDS = new Set(
  'a an the of on in at to for is it its my your our can could i have may please what whats whatre and or me you be will would me us number'.split(' '),
);
// "number" is listed as a function word on purpose: nearly every cue says it, and alone it proves nothing;
// the word that says which number ("card", "account", "routing") carries the cue.

export function cueWord(text: string): CueWord {
  const t = normalizeWord(text);
  return { text: t, key: phoneticKey(t), content: !FUNCTION_WORDS.has(t) };
}

/** Whether a recognized word (normalized text and key) may be the cue word as misheard. */
export function wordsMatch(heard: string, heardKey: string, cue: CueWord): boolean {
  if (heard === cue.text) return true;
  if (heard.length === 0 || cue.text.length === 0) return false;
  if (cue.key.length >= 2 && heardKey === cue.key) return true;
  // Short words differ too much by chance: edit distance only from four letters on.
  if (cue.text.length >= 4 && heard.length >= 3) {
    const limit = cue.text.length >= 7 ? 2 : 1;
    if (editDistance(heard, cue.text, limit) <= limit) return true;
  }
  // Sound keys one apart ("bird" for "birth"), from a word of about the cue word's length ("and" is not "account").
  if (
    cue.key.length >= 3 &&
    heardKey.length >= 3 &&
    heard[0] === cue.text[0] &&
    Math.abs(heard.length - cue.text.length) <= 2 &&
    editDistance(heardKey, cue.key, 1) <= 1
  )
    return true;
  return false;
}

/** A phrase to find, prepared once. */
export interface CuePhrase<T = unknown> {
  text: string;
  words: CueWord[];
  /** What the caller attached (kind, direction). */
  tag: T;
  /** Every word must be heard (fuzzily): for lead-ins, whose last words ("is") tell them from a request. */
  whole: boolean;
}

export function cuePhrase<T>(text: string, tag: T, whole = false): CuePhrase<T> {
  const words = text.split(/\s+/).map(cueWord).filter((w) => w.text !== '');
  return { text: words.map((w) => w.text).join(' '), words, tag, whole };
}

/** A match: the phrase, and the indexes of the first and last recognized word it covers. */
export interface PhraseMatch<T> {
  phrase: CuePhrase<T>;
  first: number;
  last: number;
}

/**
 * Finds the phrases in a word sequence. Each distinct recognized word is compared once with each distinct cue
 * word (cached), and a phrase is only aligned where one of its first three words was heard, so the cost grows
 * with the transcript's length, not its square.
 */
export function findPhrases<T>(heard: readonly string[], phrases: readonly CuePhrase<T>[]): PhraseMatch<T>[] {
  const norm = heard.map(normalizeWord);
  const keys = new Map<string, string>();
  const keyOf = (w: string) => {
    let k = keys.get(w);
    if (k === undefined) keys.set(w, (k = phoneticKey(w)));
    return k;
  };
  // Distinct cue words, and per distinct heard word which cue words it may be.
  const cueWords = new Map<string, CueWord>();
  for (const p of phrases) for (const w of p.words) cueWords.set(w.text, w);
  const matches = new Map<string, Set<string>>();
  const matchesOf = (w: string) => {
    let m = matches.get(w);
    if (!m) {
      m = new Set();
      for (const cw of cueWords.values()) if (wordsMatch(w, keyOf(w), cw)) m.add(cw.text);
      matches.set(w, m);
    }
    return m;
  };
  const found: PhraseMatch<T>[] = [];
  const lastEnd = new Map<CuePhrase<T>, number>();
  for (let i = 0; i < norm.length; i++) {
    const here = matchesOf(norm[i]);
    if (here.size === 0) continue;
    for (const phrase of phrases) {
      const anchor = phrase.words.slice(0, 3).some((w) => here.has(w.text));
      if (!anchor) continue;
      // Once found, the same phrase is not found again inside that match.
      if (lastEnd.has(phrase) && lastEnd.get(phrase)! >= i) continue;
      const m = alignAt(norm, i, phrase, matchesOf);
      if (m === undefined) continue;
      found.push({ phrase, first: i, last: m });
      lastEnd.set(phrase, m);
    }
  }
  return found;
}

/**
 * Aligns a phrase starting at heard word `start`: phrase words may be missing (function words freely, at
 * most one content word and only in phrases of three or more), at most one extra heard word may sit inside.
 * Returns the index of the last heard word covered, or undefined when the phrase is not there.
 */
function alignAt<T>(
  heard: readonly string[],
  start: number,
  phrase: CuePhrase<T>,
  matchesOf: (w: string) => Set<string>,
): number | undefined {
  const words = phrase.words;
  const contentTotal = words.filter((w) => w.content).length;
  const mayMissContent = contentTotal >= 3 ? 1 : 0;
  let best: number | undefined;
  // Depth-first over (phrase index, heard index, extras used, content missed, matched): phrases are short.
  const visit = (p: number, h: number, extras: number, missedContent: number, matched: number, last: number) => {
    if (p === words.length) {
      // Enough of the phrase: every content word but the allowed one, and more than half the words.
      const enough = phrase.whole ? matched === words.length : matched * 2 > words.length;
      if (enough && matched > 0 && last >= start) best = best === undefined ? last : Math.max(best, last);
      return;
    }
    const w = words[p];
    if (h < heard.length && matchesOf(heard[h]).has(w.text)) visit(p + 1, h + 1, extras, missedContent, matched + 1, h);
    // The word is missing (or misheard beyond matching): consume nothing, or consume one heard word in its place.
    if (!w.content || missedContent < mayMissContent) {
      const missed = missedContent + (w.content ? 1 : 0);
      if (p > 0) visit(p + 1, h, extras, missed, matched, last);
      if (h < heard.length && p > 0) visit(p + 1, h + 1, extras, missed, matched, last);
    }
    // One extra heard word inside the phrase ("social uh security", "the long number that's on the front").
    if (extras === 0 && p > 0 && h < heard.length) visit(p, h + 1, 1, missedContent, matched, last);
  };
  // The phrase's first word(s) may be missing: start the alignment at each of its first three words.
  // A one-word phrase ("routing", "cvv") has nothing around it to confirm it: exact text or sound key only.
  if (words.length === 1) {
    const w = heard[start];
    // Short keys (ssn: SN, like "son") say too little: exact text then.
    return w === words[0].text || (words[0].key.length >= 3 && phoneticKey(w) === words[0].key) ? start : undefined;
  }
  for (let skip = 0; skip < Math.min(3, words.length); skip++) {
    const skipped = words.slice(0, skip);
    const skippedContent = skipped.filter((w) => w.content).length;
    if (skippedContent > mayMissContent) break;
    if (!matchesOf(heard[start]).has(words[skip].text)) continue;
    visitFrom(skip, skippedContent);
  }
  function visitFrom(skip: number, missed: number) {
    visit(skip + 1, start + 1, 0, missed, 1, start);
  }
  return best;
}
