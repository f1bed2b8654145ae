// The statistical tagger as a recognizer (src/redact/tagger/): Person and Address wherever the trained model
// tags them, beside the rule-based recognizers (their detections are a union: the tagger only adds). The model is
// loaded once per thread, on first use.
import { gazetteerTags } from '../tagger/gazetteer.js';
import { ordinaryWord, taggerModel } from '../tagger/model.js';
import { FastTagger } from '../tagger/decode.js';
import { EMITTED_KINDS } from '../tagger/tagger.js';
import { caseless } from './caseless.js';
import { wordClassNotName } from '../tagger/wordClass.js';
import type { EntityKind } from '../entityKinds.js';
import type { Detection } from '../types.js';
import { startsWithCue } from './digitRuns.js';
import { fromWords, type Doc, type Recognizer } from './doc.js';
import { ACRONYMS, acronymHere, spellsAcronym } from './acronyms.js';
import { sentThere, shopOn } from './address.js';
import { amount, NOT_HOUSE, numeric, SPOKEN_NUMBER, talkNotAddress, townAroundPostcode, wordy } from './addressTalk.js';
import { englishWord } from './englishWords.js';
import { AMBIGUOUS, fold, PLACE_PREFIX, PLACE_SUFFIX } from './nameData.js';
import { nameUsedAsWord, streetSpan, TITLED_BRAND } from './person.js';
import { taggedNotPerson } from './taggedNotPerson.js';
import { taggedNotAddress } from './taggedNotAddress.js';
import { isTitle } from './titles.js';

// SequenceTagger's tags, decoded faster (decode.ts)
let tagger: FastTagger | undefined;

/**
 * Below the rule-based recognizers' confidences: where a detection of theirs overlaps the tagger's, theirs names
 * what both cover (a phone number inside a run the tagger took for an address stays a phone number).
 */
const CONFIDENCE = 0.4;

/**
 * Whether a Person run can be a name: some word of it is on the project's name lists or is not an ordinary word
 * ("as a contact", "jealous" are not; humannames alone does not vouch, it holds many ordinary words), and a run of
 * single letters is a spelling of at least three; a lone name that is also an ordinary word is not taken.
 */
function nameLike(norms: string[], nounsVouch = true): boolean {
  // (letters that spell an abbreviation, "s s n", "v p n", are none)
  if (norms.every((w) => /^\p{L}$/u.test(w))) return norms.length >= 3 && !spellsAcronym(norms);
  // one letter said with a word for it ("Z as in zebra", "b for boy") is a letter of something spelled, not a name
  if (ONE_LETTER_SPELLED.test(norms.join(' '))) return false;
  // a word with no letter, a digit, a slash or a dot inside is a date, a web address or a code ("12/1/1977",
  // "www.dialforum.co.uk", "½"), not a name ("j.", "o'neil", "mary-jane" are)
  if (norms.some((w) => !/\p{L}/u.test(w) || /[\d/@]|\.\p{L}/u.test(w))) return false;
  // a word of English words joined by hyphens that no name list holds ("price-match", "follow-up") is not a name
  if (norms.some((w) => w.includes('-') && !gazetteerTags(w).some((g) => g === 'fn' || g === 'ln') && w.split('-').every((p) => p.length > 0 && (ordinaryWord(p) || englishWord(p))) && w.split('-').some((p) => !gazetteerTags(p).some((g) => g === 'fn' || g === 'ln')))) return false;
  // a name that is also an ordinary word ("Mark it as paid", "will", "Pretty good", "Sales") is left to the cue and
  // frame rules when it stands alone
  // (a plural of one too: "locations", "stores")
  if (norms.length === 1 && (AMBIGUOUS.has(norms[0]) || ordinaryWord(norms[0]) || (/[^s]s$/.test(norms[0]) && ordinaryWord(norms[0].slice(0, -1))) || TIME_WORD.test(norms[0]))) return false;
  const listed = (w: string) => {
    const g = gazetteerTags(w);
    return g.includes('fn') || g.includes('ln');
  };
  // evidence: a word no list calls ordinary (and no month or number's cue: "ssn", "dob" are no names), or two
  // listed names together ("Rose Hunter"); a run of listed words that are all ordinary ("pretty good") is not
  // (a word compromise infers to be an adjective, adverb or verb, "pretty", "sunny", is ordinary too, unless listed)
  // An English noun on no name list ("company", "sim", "battery", "dials") is no evidence either, unless the caller
  // vouches for it (the tagger sure, a name beside it: nounsVouch), or in a spelling ("s as in sam": the words that
  // spell a name are part of it).
  const nounsOut = !nounsVouch && !norms.some((w) => /^\p{L}$/u.test(w));
  if (norms.some((w) => !(gazetteerTags(w).includes('mon') || ordinaryWord(w) || startsWithCue(w) || (nounsOut && englishWord(w))) && (listed(w) || !wordClassNotName(w)))) return true;
  return norms.filter(listed).length >= 2 && norms.some((w) => listed(w) && !AMBIGUOUS.has(w));
}

const ONE_LETTER_SPELLED = /^\p{L} (as in|as|for|like) \p{L}+$/u;

/** Lists that are evidence of an address by themselves (a street type, a place, a number...). */
const ADDRESS_LISTS = ['st', 'pl', 'state', 'ctry', 'num', 'unit', 'dir'];

/**
 * Whether an Address run can be an address: some word of it is on an address list, has a digit, or is not an
 * ordinary word ("Technical Support will follow up" is not an address; "Adebayo Crescent", "4417", "lekki" are).
 */
function addressLike(norms: string[]): boolean {
  return norms.some((w) => /\d/.test(w) || gazetteerTags(w).some((g) => ADDRESS_LISTS.includes(g)) || !ordinaryWord(w));
}

const PLACE_LISTS = ['pl', 'state', 'ctry'];
const IN_PLACE = new Set(['in', 'from', 'near', 'to', 'around', 'outside', 'visiting', 'visited']);
/**
 * A place named in passing, not an address: "we live in Virginia Beach", "flying from Santa Rosa" — every word a
 * place word (a city, state or country, or "santa", "beach"), after "in"/"from"/"near"..., no number after it.
 */
function placeOnly(doc: Doc, s: number, e: number): boolean {
  if (!IN_PLACE.has(doc.words[s - 1]?.norm ?? '')) return false;
  const next = doc.words[e]?.norm ?? '';
  if (/\d/.test(next) || gazetteerTags(next).includes('num')) return false;
  return doc.words.slice(s, e).every((w) => PLACE_PREFIX.has(w.norm) || PLACE_SUFFIX.has(w.norm) || isPlace(w.norm));
}

/** On a city, state or country list, as said or without its accents ("Montréal"). */
const isPlace = (w: string) => gazetteerTags(w).some((g) => PLACE_LISTS.includes(g)) || (fold(w) !== w && gazetteerTags(fold(w)).some((g) => PLACE_LISTS.includes(g)));

/**
 * Longest word a tagged run may hold: no name or street word is longer, and a run over a long token (a pasted
 * hash, a 1 MiB word) is not an address or a name; the rule recognizers still look at it.
 */
const MAX_WORD_CHARS = 40;

/** Single letters beside a number ("seven g a w k seven six three") spell a code, not a name (as spelled.ts reads them). */
function lettersInCode(doc: Doc, s: number, e: number): boolean {
  if (!doc.words.slice(s, e).every((w) => /^\p{L}$/u.test(w.norm))) return false;
  const numeric = (i: number) => i >= 0 && i < doc.words.length && (/\d/.test(doc.words[i].norm) || gazetteerTags(doc.words[i].norm).includes('num'));
  return numeric(s - 1) || numeric(e);
}

/** Words [s, e) trimmed to start and end on a word with a letter or digit (not a lone "?" beside them). */
function trimmed(doc: Doc, s: number, e: number): [number, number] {
  while (s < e && !hasContent(doc, s)) s++;
  while (e > s && !hasContent(doc, e - 1)) e--;
  return [s, e];
}
const hasContent = (doc: Doc, i: number) => doc.words[i].end > doc.words[i].start;

/** Word i cannot be part of a name at a run's edge: a number's cue, or an ordinary word on no name list. */
function nameEdge(doc: Doc, i: number): boolean {
  const w = doc.words[i].norm;
  const g = gazetteerTags(w);
  return startsWithCue(w) || (ordinaryWord(w) && !g.includes('fn') && !g.includes('ln'));
}
const letterAt = (doc: Doc, i: number) => /^\p{L}$/u.test(doc.words[i].norm);

/**
 * A Person run without the words at its edges that cannot be part of a name: a number's cue ("ssn", "dob") or an
 * ordinary word on no name list ("caller zebulon quackenbush ssn" -> "zebulon quackenbush").
 */
function nameCore(doc: Doc, s: number, e: number): [number, number] {
  while (s < e && nameEdge(doc, s)) s++;
  while (e > s && nameEdge(doc, e - 1)) e--;
  // letters at an edge that spell an abbreviation ("h d m i cables", "the v p n"), and what is ordinary next to them
  let k = s;
  while (k < e && letterAt(doc, k)) k++;
  if (k - s >= 2 && acronymHere(doc.words.slice(s, k).map((w) => w.norm).join(''), doc.words[s - 1]?.norm ?? '', doc.words[k]?.norm ?? '', doc.words.slice(k + 1, k + 7).map((w) => w.norm))) s = k;
  k = e;
  while (k > s && letterAt(doc, k - 1)) k--;
  if (e - k >= 2 && acronymHere(doc.words.slice(k, e).map((w) => w.norm).join(''), doc.words[k - 1]?.norm ?? '', doc.words[e]?.norm ?? '', doc.words.slice(e + 1, e + 7).map((w) => w.norm))) e = k;
  while (s < e && nameEdge(doc, s)) s++;
  while (e > s && nameEdge(doc, e - 1)) e--;
  return [s, e];
}

/** Whether words [s, e) may stand as a tagged run of `kind` (nounsVouch: nameLike's). */
function readsAs(doc: Doc, kind: EntityKind, s: number, e: number, nounsVouch = true): boolean {
  const norms = doc.words.slice(s, e).map((w) => w.norm);
  // An Address run needs a word that is not a number, a month or a function word ("at 3 pm": "3" is none); no
  // more: a gate on street words and numbers (tried) cost recall on streets of unseen formats far more than it
  // saved in precision.
  if (e <= s || norms.some((w) => w.length > MAX_WORD_CHARS)) return false;
  // a given name used as the word it also is ("rob me blind", "clay soil") with only words after it
  if (kind === 'Person' && nameUsedAsWord(doc, s) && norms.slice(1).every((w) => englishWord(w) || ordinaryWord(w))) return false;
  // an abbreviation written in capitals ("the big SUV", "the ATM"; "Ira" is a name)
  if (kind === 'Person' && e - s === 1 && ACRONYMS.has(norms[0]) && /^\p{Lu}{2,}$/u.test(doc.words[s].raw.replace(/[^\p{L}]/gu, ''))) return false;
  // a product named with a title ("a Dr Pepper")
  if (kind === 'Person' && s > 0 && TITLED_BRAND.test(`${doc.words[s - 1].norm.replace(/\.$/, '')} ${norms[0]}`)) return false;
  // a phone's state after "on" ("I'm on speaker", "on mute"), no name
  if (kind === 'Person' && e - s === 1 && PHONE_STATE.has(norms[0]) && doc.words[s - 1]?.norm === 'on') return false;
  if (kind === 'Person') return nameLike(norms, nounsVouch) && !lettersInCode(doc, s, e) && !(norms.length === 1 && NOT_PERSON.test(norms[0])) && !taggedNotPerson(doc, s, e);
  // a shop located by its street, no number ("the branch on Cedar Avenue"): not where someone lives
  if (doc.words[s - 1]?.norm === 'on' && shopOn(doc, s - 1) && !norms.some(numeric) && !numeric(doc.words[e]?.norm) && !sentThere(doc, s - 2)) return false;
  return norms.some(wordy) && addressLike(norms) && !placeOnly(doc, s, e) && !amount(doc, s, e) && !norms.every((w) => w.length === 1 || !/\p{L}/u.test(w)) && !talkNotAddress(doc, s, e) && !taggedNotAddress(doc, s, e);
}

/** Where a phone is when a caller is "on" it: "on speaker", "on mute", "on bluetooth". */
const PHONE_STATE = new Set(['speaker', 'speakerphone', 'loudspeaker', 'mute', 'hold', 'bluetooth', 'headset', 'handsfree']);

/** Every word a city's, state's or country's ("Illinois", "Virginia Beach"). */
const placeWords = (doc: Doc, s: number, e: number) =>
  doc.words.slice(s, e).every((w) => PLACE_PREFIX.has(w.norm) || PLACE_SUFFIX.has(w.norm) || isPlace(w.norm));

/**
 * A place named alone is no address: a tagged Address run of place words only is kept when a number of its own is
 * beside it (a house number before it, a postcode after it: "Springfield, Illinois 62704"), not another kind's
 * number ("license D412-7781-9053, Illinois", "texas d l 2804...") and not none ("thats dublin").
 */
function placeAlone(doc: Doc, s: number, e: number, ruleNumberAt: (i: number) => boolean): boolean {
  if (!placeWords(doc, s, e)) return false;
  const ownNumber = (i: number) => numeric(doc.words[i]?.norm) && !ruleNumberAt(i);
  return !ownNumber(s - 1) && !ownNumber(e);
}

/** Times of day and holidays: "between eight and noon", "on Halloween". */
const TIME_WORD = /^(noon|midnight|midday|tonight|halloween|christmas|easter|thanksgiving|hanukkah|diwali|ramadan|eid)$/;

/** Departments and channels a caller is sent to: "transfer me to Sales", "Support told me". */
const NOT_PERSON = /^(sales|support|billing|accounts|collections|fraud|security|claims|shipping|returns|warehouse|legal|management|dispatch|reception|payroll|hr|it|marketing|finance|service|services|tech|helpdesk)$/;

/** A house number (words [e, end)) at word e: "17A", "94a,", "625/2" written; "seventeena", "eighty three", "ninety oneb" said. */
function houseNumber(doc: Doc, e: number): number | undefined {
  const w = doc.words;
  let k = e;
  if (!doc.spoken && /^\d{1,5}[a-z]{0,2}(\/\d{1,4}[a-z]?)?$/.test(w[k]?.norm ?? '') && !/^[$€£]/.test(w[k].raw)) k++;
  else while (k < w.length && k - e < 4 && SPOKEN_NUMBER.test(w[k].norm) && (k === e || !endsClauseAt(doc, k - 1))) k++;
  if (k === e || NOT_HOUSE.has(w[k]?.norm ?? '')) return undefined;
  return k;
}
const endsClauseAt = (doc: Doc, i: number) => !doc.spoken && /[.!?;:,]["')\]]*$/.test(doc.words[i]?.raw ?? '');

/**
 * A "name" with a house number right after it (or ending in one, said) and no listed given name in it is a street
 * of the form most of the world writes, name then number ("Sølvgade 17A, Holstebro", "Övre Ringgränden 83",
 * "lærkevej thirteena"): the run and the number, as an Address.
 */
function streetBeforeNumber(doc: Doc, s: number, e: number): [number, number] | undefined {
  let end = e;
  while (end > s + 1 && SPOKEN_NUMBER.test(doc.words[end - 1].norm) && doc.spoken) end--;
  // letters spelled before a number are a code ("g a w k seven six three"), not a street
  const words = doc.words.slice(s, end);
  if (words.some((w) => gazetteerTags(w.norm).includes('fn') || /\d/.test(w.norm)) || !words.some((w) => w.norm.length >= 3)) return undefined;
  if (end > s && endsClauseAt(doc, end - 1)) return undefined;
  const k = houseNumber(doc, end);
  return k !== undefined && k >= e ? [s, k] : undefined;
}

/**
 * How sure the tagger must be (the smallest margin of a run's words) for an English noun on no name list to stand
 * as a name by itself: a name said in a strong frame ("ask Aquiline to call me back", "is this Maxim") is tagged
 * far above this; a noun the name lists happen to hold ("this company", "the international sim", "our team dials
 * in") below it.
 */
const SURE_MARGIN = 22;

/** A name right beside words [s, e): another tagged Person word, or a listed given or family name ("Erma Beer"). */
function nameBeside(doc: Doc, s: number, e: number, personWords: ReadonlySet<number>): boolean {
  const name = (i: number) => {
    if (i < 0 || i >= doc.words.length) return false;
    if (personWords.has(i)) return true;
    const w = doc.words[i].norm;
    const g = gazetteerTags(w);
    return (g.includes('fn') || g.includes('ln')) && !ordinaryWord(w) && !AMBIGUOUS.has(w);
  };
  return name(s - 1) || name(e);
}

export const taggerRecognizer: Recognizer = (doc) => {
  // On in every redaction path (off with tagger: false, for evaluation and benches): its runs only add to what the
  // rules mask (spans.ts keeps the rules' own values for a record to look for; yieldToRules leaves numbers to them).
  if (doc.options.tagger === false || doc.words.length === 0) return [];
  tagger ??= new FastTagger(taggerModel());
  const out: Detection[] = [];
  const runs = tagger.runs(doc);
  const personWords = new Set<number>();
  for (const run of runs) if (run.kind === 'Person') for (let i = run.wordStart; i < run.wordEnd; i++) personWords.add(i);
  for (const run of runs) {
    if (!EMITTED_KINDS.has(run.kind)) continue;
    let [s, e] = trimmed(doc, run.wordStart, run.wordEnd);
    let kind: EntityKind = run.kind;
    // a "name" with a street type after it and a house number is a street ("Roberts Väg 8"): masked as an address
    const street = kind === 'Person' ? (streetSpan(doc, s, e) ?? streetBeforeNumber(doc, s, e)) : undefined;
    if (street) [kind, s, e] = ['Address', Math.min(s, street[0]), Math.max(e, street[1])];
    else if (kind === 'Person') [s, e] = nameCore(doc, s, e);
    const vouch = kind !== 'Person' || run.margin >= SURE_MARGIN || nameBeside(doc, s, e, personWords);
    if (readsAs(doc, kind, s, e, vouch)) out.push({ ...fromWords(doc, kind, s, e, CONFIDENCE, 'tagger'), additive: true });
  }
  return out;
};

/**
 * Rule kinds a run does not give way to: names and places, which the rules guess from context as the tagger does
 * (there, the more confident names what both cover, and a street named after a person stays an address), and for
 * an address the ZIP code that is part of it.
 */
const SHARED: Partial<Record<EntityKind, readonly EntityKind[]>> = { Person: ['Person', 'Address'], Address: ['Address', 'Person', 'ZipCode'] };

/** Words that are themselves evidence of a kind, when a run has lost the rest of its evidence to a rule. */
const OWN_WORDS: Partial<Record<EntityKind, readonly string[]>> = { Person: ['fn', 'ln'], Address: ['st', 'pl', 'state', 'ctry'] };

/** Where a number's cue ending at word `end` starts (at most three words back, not before `from`); `end` if none. */
function cueBefore(doc: Doc, from: number, end: number): number {
  for (let k = Math.min(3, end - from); k >= 1; k--) {
    if (startsWithCue(doc.words.slice(end - k, end).map((w) => w.norm).filter(Boolean).join(' '))) return end - k;
  }
  return end;
}

/** Lists that say a word belongs to an address, not a name before it. */
const ADDRESS_WORD_LISTS = ['st', 'pl', 'state', 'ctry', 'unit', 'dir', 'num'];

/**
 * A tagged Address run that starts with a name before the house number of a street the rules found ("chidi nwankwo
 * five oh two pecan street", "Ship to Ama Owusu-Ansah, 14 Birch Lane"): the street starts at its number, so the
 * words before it are not the street. When they read as a name (two or three words of letters, or one right after a
 * name; no address word, no English word a name list does not hold; written, capitalised) they are the Person,
 * and the run from the number on stays the Address. Only labels change: every word stays masked.
 */
function nameBeforeStreet(doc: Doc, d: Detection, index: DetectionIndex): [Detection, Detection] | undefined {
  let street: Detection | undefined;
  for (let i = d.wordStart! + 1; i < d.wordEnd! && !street; i++) street = index.streetAt.get(i);
  if (!street) return undefined;
  const at = street.wordStart!;
  if (!numeric(doc.words[at].norm)) return undefined;
  const [s, e] = trimmed(doc, d.wordStart!, at);
  // two or three words, or one after a name ("ysolde | achterberg three one eight..."): one word alone before a
  // number may be the street's own name ("Sølvgade 17A") or a house's
  const before = index.personEndingAt.get(s);
  if (e - s < (before ? 1 : 2) || e - s > 3) return undefined;
  for (let i = s; i < e; i++) {
    const w = doc.words[i];
    if (!/^\p{L}[\p{L}'’-]*$/u.test(w.norm) || gazetteerTags(w.norm).some((g) => ADDRESS_WORD_LISTS.includes(g))) return undefined;
    if (!doc.spoken && !/^\p{Lu}/u.test(w.raw)) return undefined;
    // an English word is a name here only when a name list holds it ("the old mill", "green acres" are houses)
    if ((ordinaryWord(w.norm) || englishWord(w.norm)) && !gazetteerTags(w.norm).some((g) => g === 'fn' || g === 'ln')) return undefined;
  }
  if (!readsAs(doc, 'Person', s, e, false)) return undefined;
  return [
    // one name with the one before it ("ysolde achterberg")
    { ...fromWords(doc, 'Person', before?.wordStart ?? s, e, d.confidence, d.recognizer), additive: true },
    { ...fromWords(doc, 'Address', at, d.wordEnd!, d.confidence, d.recognizer), additive: true },
  ];
}

/**
 * A rule's kind wins where a tagged run overlaps a rule detection of a number or code kind (SSN, card, phone,
 * e-mail...): the run gives up the words the rule covers ("ssn 123-45-6789" tagged as an Address over the SSN;
 * an address run reaching into the phone number after it, which, merged with the rules' address, took the
 * number's label). The number's cue before it goes with it. What is left on either side stays only when it still
 * reads as the run's kind on its own and is evidence of it: two words with letters, or one on the kind's lists
 * ("desk:" is not). What the rules cover is untouched: the tagger only adds.
 */
/**
 * The detections a tagged run is checked against, found by word rather than by a scan of every detection (a long
 * call holds thousands of both): the rules' detections touching each word, the words a number rule covers, the
 * rules' streets by their first word, names by the word after them.
 */
interface DetectionIndex {
  rulesTouching(s: number, e: number): Detection[];
  ruleNumberAt(i: number): boolean;
  streetAt: Map<number, Detection>;
  personEndingAt: Map<number, Detection>;
}

function indexDetections(doc: Doc, detections: readonly Detection[], rules: readonly Detection[]): DetectionIndex {
  const n = doc.words.length;
  const byWord: Detection[][] = [];
  const unplaced: Detection[] = [];
  const numberAt = new Uint8Array(n);
  for (const r of rules) {
    if (r.wordStart === undefined || r.wordEnd === undefined) {
      unplaced.push(r);
      continue;
    }
    const number = !SHARED.Address!.includes(r.kind);
    for (let i = r.wordStart; i < r.wordEnd && i < n; i++) {
      (byWord[i] ??= []).push(r);
      if (number) numberAt[i] = 1;
    }
  }
  const streetAt = new Map<number, Detection>();
  const personEndingAt = new Map<number, Detection>();
  for (const d of detections) {
    if (d.wordStart === undefined) continue;
    if (!d.additive && d.kind === 'Address' && d.recognizer === 'address' && !streetAt.has(d.wordStart)) streetAt.set(d.wordStart, d);
    if (d.kind === 'Person' && d.wordEnd !== undefined && !personEndingAt.has(d.wordEnd)) personEndingAt.set(d.wordEnd, d);
  }
  return {
    rulesTouching(s, e) {
      const found = new Set<Detection>(unplaced);
      for (let i = Math.max(0, s); i < e && i < n; i++) for (const r of byWord[i] ?? []) found.add(r);
      return [...found];
    },
    // a word a number rule covers; a rule placed by characters only (no words) is looked at as before
    ruleNumberAt: (i) => i >= 0 && i < n && (numberAt[i] === 1 || unplaced.some((r) => !SHARED.Address!.includes(r.kind) && r.start < doc.words[i].end && doc.words[i].start < r.end)),
    streetAt,
    personEndingAt,
  };
}

/** Words an e-mail address is given after ("so thats ...", "the email is ..."). */
const EMAIL_GIVEN = /^(thats|that's|its|it's|is|email|e-mail|address)$/;
/**
 * A tagged Person run of said words that runs straight into a rule's e-mail address whose local part it begins
 * ("so thats oluwa | shay un dot adebayo at proton mail dot com": the e-mail's pieces, cut short where its rule
 * stops counting plain words), after words an address is given after: the run as the e-mail's, masked still.
 */
function localPartBefore(doc: Doc, d: Detection, index: DetectionIndex): Detection | undefined {
  const s = d.wordStart!;
  const e = d.wordEnd!;
  if (e - s > 2 || !EMAIL_GIVEN.test(doc.words[s - 1]?.norm ?? '')) return undefined;
  const email = index.rulesTouching(e, e + 1).find((r) => r.kind === 'Email' && r.wordStart === e);
  if (!email || !caseless(doc)) return undefined;
  const words = email ? doc.words.slice(email.wordStart, email.wordEnd).map((w) => w.norm) : [];
  const at = words.indexOf('at');
  // (a dot or an underscore said in the local part: pieces of one address, not a name before it)
  if (at < 0 || !words.slice(0, at).some((w) => w === 'dot' || w === 'underscore')) return undefined;
  return { ...fromWords(doc, 'Email', s, e, d.confidence, d.recognizer), additive: true };
}

/**
 * A rule's Person inside a tagged Address run, right after a title or a rank in it ("Petty Officer Delia Quon,
 * Unit 100410 Box 318, FPO AP 96667" read as one address): the name is the Person (masked as before), and the
 * words of the run before the title and after the name are what is left to read as an address. Not where a street
 * type follows the name ("40 Captain Hale Drive": a street named after someone).
 */
function titledNameIn(doc: Doc, d: Detection, persons: ReadonlyMap<number, Detection>): { person: Detection; rest: [number, number][] } | undefined {
  for (let i = d.wordStart! + 1; i < d.wordEnd!; i++) {
    const p = persons.get(i);
    if (!p || p.wordEnd! > d.wordEnd! || !isTitle(doc.words[i - 1].norm) || (!doc.spoken && !/^\p{Lu}/u.test(doc.words[i - 1].raw))) continue;
    const after = doc.words[p.wordEnd!]?.norm ?? '';
    if (gazetteerTags(after).includes('st') || gazetteerTags(doc.words[p.wordEnd! - 1].norm).includes('st')) continue;
    let t = i - 1;
    while (t > d.wordStart! && isTitle(doc.words[t - 1].norm)) t--;
    // (a house number before the title, in the run or just before it: "12 Governor Bradford Commons" is a street)
    if (t > 0 && numeric(doc.words[t - 1].norm) && !endsClauseAt(doc, t - 1)) continue;
    return { person: p, rest: [trimmed(doc, d.wordStart!, t), trimmed(doc, p.wordEnd!, d.wordEnd!)].filter(([s, e]) => e > s) };
  }
  return undefined;
}

export function yieldToRules(doc: Doc, detections: readonly Detection[], wanted?: ReadonlySet<EntityKind>): Detection[] {
  const tagged = detections.filter((d) => d.additive && d.wordStart !== undefined && d.wordEnd !== undefined);
  if (tagged.length === 0) return [...detections];
  const rules = detections.filter((d) => !d.additive);
  const taggedSet = new Set(tagged);
  const out = detections.filter((d) => !taggedSet.has(d));
  const index = indexDetections(doc, detections, rules);
  const persons = new Map<number, Detection>();
  for (const d of rules) if (d.kind === 'Person' && d.wordStart !== undefined && !persons.has(d.wordStart)) persons.set(d.wordStart, d);
  // a run split in two only where both kinds are asked for: a name left out of an Address-only redaction is a leak
  const splitting = !wanted || (wanted.has('Person') && wanted.has('Address'));
  for (const run of tagged) {
    // "Petty Officer Delia Quon, Unit 100410 Box 318, ...": a titled name a rule found inside the run is the name
    const ranked = run.kind === 'Address' && splitting ? titledNameIn(doc, run, persons) : undefined;
    if (ranked) {
      out.push(ranked.person);
      for (const [s, e] of ranked.rest) if (readsAs(doc, 'Address', s, e)) out.push({ ...fromWords(doc, 'Address', s, e, run.confidence, run.recognizer), additive: true });
      continue;
    }
    // "chidi nwankwo five oh two pecan street": the name before a street's house number is a name
    const split = run.kind === 'Address' && splitting ? nameBeforeStreet(doc, run, index) : undefined;
    if (split) out.push(split[0]);
    const d = split?.[1] ?? run;
    // "thats oluwa shay un dot adebayo at ...": a said word run into an e-mail's local part is the e-mail's
    const mail = d.kind === 'Person' ? localPartBefore(doc, d, index) : undefined;
    if (mail) {
      out.push(mail);
      continue;
    }
    const other = index.rulesTouching(d.wordStart!, d.wordEnd!).filter((r) => !SHARED[d.kind]?.includes(r.kind) && r.start < d.end && d.start < r.end);
    if (d.kind === 'Address' && other.length === 0 && placeAlone(doc, d.wordStart!, d.wordEnd!, index.ruleNumberAt)) continue;
    // "we're in Brunswick, postcode 3056, Victoria": the rules' ZipCode is the postcode; the town is no address
    if (d.kind === 'Address' && townAroundPostcode(doc, d.wordStart!, d.wordEnd!, (i) => index.rulesTouching(i, i + 1).some((r) => r.kind === 'ZipCode' && r.start < doc.words[i].end && doc.words[i].start < r.end))) continue;
    if (other.length === 0) {
      out.push(d);
      continue;
    }
    const taken = (w: number) => other.some((r) => r.start < doc.words[w].end && doc.words[w].start < r.end);
    for (let w = d.wordStart!; w < d.wordEnd!; ) {
      while (w < d.wordEnd! && taken(w)) w++;
      const from = w;
      while (w < d.wordEnd! && !taken(w)) w++;
      // The number's cue just before it goes with the number ("John Smith, ssn | 123-45-6789").
      const cut = w < d.wordEnd! ? cueBefore(doc, from, w) : w;
      const [s, e] = trimmed(doc, from, cut);
      if (!readsAs(doc, d.kind, s, e) || (d.kind === 'Address' && placeAlone(doc, s, e, index.ruleNumberAt))) continue;
      const norms = doc.words.slice(s, e).map((x) => x.norm);
      const evidence = norms.filter((x) => /\p{L}/u.test(x)).length >= 2 || norms.some((x) => gazetteerTags(x).some((g) => OWN_WORDS[d.kind]?.includes(g)));
      if (evidence) out.push({ ...fromWords(doc, d.kind, s, e, d.confidence, d.recognizer), additive: true });
    }
  }
  return out;
}
