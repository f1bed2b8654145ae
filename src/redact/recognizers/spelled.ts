// Letter-by-letter spellings: "s m i t h", "s as in sam m as in mary", "sierra mike india tango hotel", "m i double
// l e r", written "S-M-I-T-H". The kind is the one the nearest cue before asks for (a name, an email, a street, a
// postcode); with no cue it is a name, less sure. Letters mixed with digits with no cue are a code (a booking
// reference, a train id): other recognizers take the codes that matter (postcodes, licences, IBANs).
import { acronymHere } from './acronyms.js';

/** Words a spelling follows: "it's r a m", "spelled s i m", "my surname l a n" ("the cable is u s b c" is none). */
const SPELLING_CUE = /^(its|it's|that's|thats|spelled|spelt|spell|spelling|name|surname)$/;
import { fromChars, fromWords, wordsOverlapping, type Doc, type Recognizer } from './doc.js';
import type { EntityKind } from '../entityKinds.js';
import { symbolRuns, type Symbol } from './symbols.js';
import type { Detection } from '../types.js';
import { normReader } from './normReader.js';

/** Cue words and the kind they ask for; the nearest before the spelling wins. */
const CUES: [RegExp, EntityKind][] = [
  [/^(email|e-mail|mail)$/, 'Email'],
  [/^(street|road|avenue|lane|drive|address|city|town)$/, 'Address'],
  [/^(postcode|postal|zip)$/, 'ZipCode'],
  [/^(name|last|first|middle|surname|maiden|initials?)$/, 'Person'],
];
/** "spelled" says a spelling follows, not of what: the kind comes from a cue before it, else a name. */
const SPELL = /^(spell|spelled|spelt|spelling)$/;
const CUE_WINDOW = 8;
/**
 * Mail services whose names callers spell in an e-mail address ("protonmail, P-R-O-T-O-N, dot com", "g m x"); many
 * are names too (Sky, Orange, Hey), so a spelling of one is taken for the service only by serviceSpelled below.
 */
export const MAIL_SERVICE = /^(gmail|googlemail|yahoo|ymail|hotmail|outlook|live|msn|aol|icloud|proton|protonmail|pm|fastmail|zoho|gmx|yandex|mail|comcast|verizon|att|sbcglobal|bellsouth|cox|charter|earthlink|btinternet|sky|virgin|orange|tutanota|hey)$/;
/** How far back, in words, the e-mail whose domain a spelling repeats may be ("at proton mail dot com, proton mail, p r o t o n"). */
const DOMAIN_WINDOW = 8;
/** A domain's first label, or the words said after "at", naming the service spelled ("protonmail" for "proton"). */
const sameService = (label: string, spelt: string) => label === spelt || label === `${spelt}mail`;
/**
 * Whether the spelling at word `at` repeats the mail service of an e-mail given just before it: "at <service>" said
 * or "...@<service>.com" written, the same service, within DOMAIN_WINDOW words.
 */
function spellsDomainBefore(doc: Doc, spelt: string, at: number): boolean {
  const w = normReader(doc);
  for (let k = at - 1; k >= Math.max(0, at - DOMAIN_WINDOW); k--) {
    const mailAt = w(k).indexOf('@');
    if (mailAt >= 0 && sameService(w(k).slice(mailAt + 1).split('.')[0], spelt)) return true;
    if (w(k) === 'at' && k + 1 < at && (sameService(w(k + 1), spelt) || (k + 2 < at && sameService(w(k + 1) + w(k + 2), spelt)))) return true;
  }
  return false;
}

/** The kind the nearest cue before word `wordIndex` asks for (within CUE_WINDOW words); "spelled" alone asks for a name. */
function cueAt(doc: Doc, wordIndex: number): EntityKind | undefined {
  let spell = false;
  for (let k = wordIndex - 1; k >= Math.max(0, wordIndex - CUE_WINDOW); k--) {
    const w = doc.words[k].norm;
    for (const [re, kind] of CUES) if (re.test(w)) return kind;
    spell ||= SPELL.test(w);
  }
  return spell ? 'Person' : undefined;
}

/**
 * A mail service spelled as the domain of the e-mail just given ("...@protonmail.com, protonmail, P-R-O-T-O-N"): a
 * public service's name, no one's. Never after a name's cue ("my last name is orange o r a n g e", "it's s k y"),
 * and never with no e-mail before it ("my email is h e y dot com" is the e-mail itself): a name may be a service's.
 */
export function serviceSpelled(doc: Doc, spelt: string, at: number): boolean {
  spelt = spelt.toLowerCase();
  if (!MAIL_SERVICE.test(spelt) || cueAt(doc, at) === 'Person' || SPELLING_CUE.test(doc.words[at - 1]?.norm ?? '')) return false;
  return spellsDomainBefore(doc, spelt, at);
}
/** Abbreviations that name the number said after them ("d o b", "s s n", "i m e i", "n d c"). */
const NUMBER_ABBR = new Set('dob ssn sin pin id dl ein itin tin vin mrn npi imei iccid meid esn upc sku ndc cvv cvc csc cid rx'.split(' '));

/** The six words from word i on (lower case). */
const later = (doc: Doc, i: number) => doc.words.slice(i, i + 6).map((w) => w.norm);

/**
 * How many single letters at the head of `s` spell an abbreviation ("i m e i", "d o b" before digits): the longest
 * such head of two letters or more, 0 when none.
 */
function acronymAhead(doc: Doc, s: readonly Symbol[]): number {
  let n = 0;
  while (n < s.length && s[n].kind === 'letter' && s[n].how === 'single' && s[n].chars.length === 1) n++;
  const before = doc.words[s[0]?.wordStart - 1]?.norm ?? '';
  for (let k = n; k >= 2; k--) if (acronymHere(s.slice(0, k).map((x) => x.chars).join(''), before, doc.words[s[k - 1].wordEnd]?.norm ?? '', later(doc, s[k - 1].wordEnd + 1))) return k;
  return 0;
}

const WRITTEN = /(?<![\p{L}\p{N}])\p{L}(?:[-.]\p{L}){2,}(?![\p{L}\p{N}])/gu;

export const spelledRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  for (const run of symbolRuns(doc)) {
    let s: Symbol[] = run.symbols;
    // a leading "a" or "i" is an article or a pronoun more often than a letter (not where it begins an
    // abbreviation: "the i m e i is ...")
    while (s.length > 0 && s[0].how === 'single' && (s[0].chars === 'a' || s[0].chars === 'i') && s[1]?.kind === 'letter' && !cueAt(doc, s[0].wordStart) && !acronymAhead(doc, s)) s = s.slice(1);
    // an abbreviation said letter by letter before a number ("d o b three twenty two sixty seven", "s s n ..."),
    // even after a name's cue ("member name lucinda marsh d o b ..."): the letters are the number's cue, no name
    // spelled; the number is the number recognizers' (a name spelled after "it's"/"spelled" stays: "spelled d o b")
    // (only a number's own abbreviation, and not where an e-mail, a street or a postcode is being spelled: "my
    // email is p c one two three at ..." keeps its letters)
    const lead = acronymAhead(doc, s);
    const cueKind = cueAt(doc, s[0]?.wordStart ?? run.wordStart);
    if (lead > 0 && s[lead]?.kind === 'digit' && NUMBER_ABBR.has(s.slice(0, lead).map((x) => x.chars).join('')) && (!cueKind || cueKind === 'Person') && !SPELLING_CUE.test(doc.words[s[0].wordStart - 1]?.norm ?? '')) s = s.slice(lead);
    const letters = s.filter((x) => x.kind === 'letter');
    const digits = s.length - letters.length;
    const sure = letters.filter((x) => x.how === 'as-in' || x.how === 'double').length;
    const nato = letters.filter((x) => x.how === 'nato').length;
    const kind = cueAt(doc, s[0]?.wordStart ?? run.wordStart);
    if (letters.length < 2 || (letters.length < 3 && sure === 0)) continue;
    if (nato === letters.length && nato < 3 && !kind) continue;
    if (letters.length === 3 && s.map((x) => x.chars).join('') === 'abc') continue;
    // an abbreviation said letter by letter ("d o b", "h d m i cables", "the v p n"), not a spelling — unless it
    // spells the word just said or follows a spelling's cue ("ram r a m", "it's r a m": Ram, Lan, Sim are names)
    const spelt = letters.map((x) => x.chars).join('');
    const before = doc.words[s[0]?.wordStart - 1]?.norm ?? '';
    if (letters.length === s.length && letters.every((x) => x.how === 'single') && acronymHere(spelt, before, doc.words[s[s.length - 1].wordEnd]?.norm ?? '', later(doc, s[s.length - 1].wordEnd + 1)) && !kind && before !== spelt && !SPELLING_CUE.test(before)) continue;
    if (digits > 0 && !kind) continue;
    if (letters.length === s.length && serviceSpelled(doc, spelt, s[0].wordStart)) continue;
    // digits ahead of the first letter belong to something else ("seven" in "unit seven s m i t h")
    while (s.length > 0 && s[0].kind === 'digit') s = s.slice(1);
    const c = kind ? 0.85 : sure > 0 ? 0.75 : 0.5;
    out.push(fromWords(doc, kind ?? 'Person', s[0].wordStart, s[s.length - 1].wordEnd, c, 'spelled'));
  }
  // written letters joined by hyphens or dots: "S-M-I-T-H", "s.m.i.t.h"
  if (!doc.spoken) {
    for (const m of doc.stream.text.matchAll(WRITTEN)) {
      const n = m[0].replace(/[-.]/g, '').length;
      if (n < 3) continue;
      const start = doc.stream.startOf(m.index!);
      const end = doc.stream.endOf(m.index! + m[0].length - 1);
      // (found by binary search: a scan of the words per spelling is quadratic on a long text)
      const at = wordsOverlapping(doc, start, end)?.wordStart ?? 0;
      const kind = cueAt(doc, at);
      // dotted capitals with no cue are an abbreviation ("U.S.A.", "D.O.B.")
      if (!kind && (m[0].includes('.') || n < 4)) continue;
      if (serviceSpelled(doc, m[0].replace(/[-.]/g, ''), at)) continue;
      out.push(fromChars(doc, kind ?? 'Person', start, end, kind ? 0.85 : 0.5, 'spelled'));
    }
  }
  return out;
};
