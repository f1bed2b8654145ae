// Person names: conversational cues ("my name is", "this is ... speaking", "last name", "spelled"), a list of common
// US names, and compromise's people() where the statistical tagger is off — each can be switched on or off
// (options.personSources) to measure which combination wins.
import { matchesIn } from './compromiseWindows.js';
import { endsClause, fromChars, fromWords, type Doc, type Recognizer } from './doc.js';
import { AMBIGUOUS, COMMON_WORDS, FIRST_NAMES as FIRST_LIST, fold, LAST_NAMES as LAST_LIST, PLACE_PREFIX, PLACE_SUFFIX, PLACE_WORDS, WORD_NAMES } from './nameData.js';
import { NAME_CITIES, STREET_OPENERS } from './addressWords.js';
import { FOREIGN_STREET, STREET_SUFFIX, STREET_TYPES_MORE } from './places.js';
import { STOP } from './stopwords.js';
import { englishWord, nameIsWord } from './englishWords.js';
import { gazetteerTags, humanNames } from '../tagger/gazetteer.js';
import { ordinaryWord } from '../tagger/model.js';
import { wordClassNotName } from '../tagger/wordClass.js';
import type { Detection } from '../types.js';
import { capitalised, caseless } from './caseless.js';
import { normReader } from './normReader.js';

/**
 * Products named with a title: "a Dr Pepper", "Mr. Clean" — only words no one is called ("Mrs. Fields", "Mr. Bean",
 * "Dr. Martens" may be people).
 */
export const TITLED_BRAND = /^(dr|doctor) (pepper|peppers)$|^(mr|mister) (clean|coffee|muscle|potato|sketch)$/;
/** Who is "called" or "named" something: "someone called Shireen", "a guy named Rolf". */
const SOMEONE = new Set(['someone', 'somebody', 'guy', 'gentleman', 'man', 'lady', 'woman', 'girl', 'fellow', 'fella', 'person', 'agent', 'rep', 'representative', 'manager', 'supervisor', 'technician', 'tech', 'driver', 'nurse', 'doctor', 'lawyer', 'one']);
/** Verbs right after a name that a modal or a noun would not take there: "my husband will is on the account". */
const AFTER_NAME_VERB = /^(is|was|has|had|does|did|pays|paid|handles|handled|says|said|called|calls|wants|wanted|knows|needs|uses|used|lives|works|opened|signed|and)$/;
/** Words after a name that is also a modal ("will", "may") that no modal takes there: "my son will on the account". */
const AFTER_WORD_NAME = /^(on|who|whos|who's|from|with|at|off)$/;
const HONORIFIC = new Set(['mr', 'mrs', 'ms', 'miss', 'mister', 'missus', 'dr', 'doctor', 'mx']);
const AFTER_THIS_IS = new Set(['speaking', 'calling', 'here', 'from', 'with', 'at']);

/** The name lists, read with accents dropped and hyphenated names in parts ("José", "Mary-Jane"). */
const inList = (list: ReadonlySet<string>, w: string): boolean => {
  if (list.has(w)) return true;
  const f = fold(w);
  if (f !== w && list.has(f)) return true;
  return f.includes('-') && f.split('-').every((p) => p.length > 1 && (FIRST_LIST.has(p) || LAST_LIST.has(p)));
};
/** inList of one list, remembered per word (bounded): asked for most words of every doc, by most rules. */
function listReader(list: ReadonlySet<string>): { has: (w: string) => boolean } {
  const memo = new Map<string, boolean>();
  return {
    has: (w) => {
      let hit = memo.get(w);
      if (hit === undefined) {
        hit = inList(list, w);
        if (memo.size < 50_000) memo.set(w, hit);
      }
      return hit;
    },
  };
}
const FIRST_NAMES = listReader(FIRST_LIST);
const LAST_NAMES = listReader(LAST_LIST);

const isCap = capitalised;
const isLetter = (doc: Doc, i: number) => /^[a-z]$/.test(doc.words[i]?.norm ?? '');
const known = (w: string) => FIRST_NAMES.has(w) || LAST_NAMES.has(w);
/** People a caller names by relation: "my wife Priya", "my son, Ethan". */
const RELATION = new Set(`wife husband spouse partner son daughter kid kids child mother mom mum father dad brother sister
grandmother grandma grandfather grandpa grandson granddaughter aunt uncle niece nephew cousin fiance fiancee fiancé
fiancée boyfriend girlfriend friend roommate boss manager supervisor colleague coworker co-worker neighbor neighbour
landlord tenant caregiver assistant agent representative rep technician advisor adviser stepson stepdaughter
stepmother stepfather brother-in-law sister-in-law mother-in-law father-in-law son-in-law daughter-in-law`.split(/\s+/));
/** What follows a possessive name: "Arne's address", "Sumaya's kid". */
const OWNED = new Set([...RELATION, ...`account address phone number card email name birthday birth date policy
claim order loan car house home apartment place office mortgage insurance social ssn license passport`.split(/\s+/)]);
/** Words after which a name is addressed or quoted: "thanks, Jerome", "said Honoré", "according to Hiroshi". */
const ADDRESSING = new Set(['said', 'says', 'asked', 'asks', 'told', 'tells', 'thanks', 'hi', 'hello', 'hey', 'dear', 'named', 'replied', 'wrote']);
/** A word that may be a name though no list knows it: not a function word, not an ordinary word. */
const unknownWord = (w: string) => w.length >= 3 && !STOP.has(w) && !COMMON_WORDS.has(w) && !/\d/.test(w) && !CONTRACTION.test(w);
/** Contractions as ASR writes them ("my mother shes hard of hearing"): never a name. */
const CONTRACTION = /^(im|ive|youre|theyre|hes|shes|thats|theres|whats|lets|dont|cant|wont|didnt|doesnt|isnt|wasnt)$/;

/** Written text: word i ends a sentence ("thanks." but not "thanks,"). */
const endsSentence = (doc: Doc, i: number) => !doc.spoken && /[.!?]["')\]]*$/.test(doc.words[i]?.raw ?? '');

/** Speech, or written text with no capital anywhere: a name after a cue is taken as in speech. */
const speechLike = caseless;

/** Whether word i can be part of a name after a cue. */
function nameWord(doc: Doc, i: number): boolean {
  const w = doc.words[i];
  if (!w || !/^[\p{L}][\p{L}'-]*$/u.test(w.norm)) return false;
  if (STOP.has(w.norm)) return false;
  // a contraction as ASR writes it ("mister hes particular about that") is no name
  if (speechLike(doc) && CONTRACTION.test(w.norm)) return false;
  if (!speechLike(doc) && !isCap(doc, i) && !known(w.norm)) return false;
  return true;
}

/** Object pronouns: after a given name that is also a verb, they make it the verb ("rob me blind", "bill us later"). */
const OBJECT = new Set(['me', 'us', 'them', 'him', 'it']);
/**
 * Word i, a given name that is also an English word ("clay", "rob"), used as the word: before an object pronoun
 * ("rob me blind") or before a noun on no name list, written in lower case ("clay soil", "Clay soil around here").
 * Not before a surname, a verb or a function word: "clay said", "rob smithers", "Clay Jensen" stay names.
 */
export function nameUsedAsWord(doc: Doc, i: number): boolean {
  const w = doc.words[i]?.norm ?? '';
  const next = doc.words[i + 1];
  if (!next || !nameIsWord(w) || endsClause(doc, i)) return false;
  if (OBJECT.has(next.norm)) return true;
  return englishWord(next.norm) && !wordClassNotName(next.norm) && (speechLike(doc) || !isCap(doc, i + 1));
}

/** The name starting at word i (1-3 words), as [start, end) or undefined. */
function nameAt(doc: Doc, i: number, max = 3): [number, number] | undefined {
  if (isLetter(doc, i) && isLetter(doc, i + 1)) {
    // spelled right after the cue: "my name is j o h n"
    let k = i;
    while (isLetter(doc, k)) k++;
    return [i, k];
  }
  if (!nameWord(doc, i)) return undefined;
  let k = i + 1;
  while (k < i + max && nameWord(doc, k) && !isLetter(doc, k) && !endsClause(doc, k - 1)) {
    // in speech, a word after the first joins unless it is an ordinary word ("my name is ann calling about"):
    // an unknown surname is part of the name, whatever follows it (more redacted rather than half a name)
    if (speechLike(doc) && !known(doc.words[k].norm) && COMMON_WORDS.has(doc.words[k].norm)) break;
    k++;
  }
  return [i, k];
}

/** Hedges between a name and the other name it may have been: "Jordan, I think, or Jordy". */
const HEDGE = new Set(['i', 'think', 'believe', 'guess', 'maybe', 'perhaps', 'like', 'something', 'um', 'uh', 'it', 'was', 'might', 'have', 'been']);
/**
 * The other name a caller offers after a name given ("the rep's name was Jordan, I think, or Jordy"): after at most
 * four hedging words, "or" and a listed name or a word no list calls ordinary (written, capitalised).
 */
function otherName(doc: Doc, k: number): [number, number] | undefined {
  const w = doc.words;
  let n = 0;
  while (k < w.length && n < 4 && HEDGE.has(w[k].norm)) [k, n] = [k + 1, n + 1];
  if (w[k]?.norm !== 'or' || !nameWord(doc, k + 1)) return undefined;
  const x = w[k + 1].norm;
  if (!(known(x) || unknownWord(x)) || (!speechLike(doc) && !isCap(doc, k + 1))) return undefined;
  return [k + 1, k + 2];
}

const phraseBefore = (w: string[], i: number, n: number) => w.slice(Math.max(0, i - n), i).join(' ');

/** A name that is also a word ("Will", "May") at i, with a listed surname after it ("May Chen"). */
function wordNameAt(doc: Doc, i: number): [number, number] | undefined {
  const w = doc.words[i];
  if (!w || !WORD_NAMES.has(w.norm) || (!speechLike(doc) && !isCap(doc, i))) return undefined;
  const next = doc.words[i + 1];
  // written, a capitalised listed surname joins though it is also a word ("Will Hunter"); said, not ("may chen" yes, "will baker" no)
  if (next && !endsClause(doc, i) && LAST_NAMES.has(next.norm) && !STOP.has(next.norm) && (speechLike(doc) ? !COMMON_WORDS.has(next.norm) : isCap(doc, i + 1))) return [i, i + 2];
  // a surname no list and no dictionary knows joins too ("ask for may ling", "this is June Okafor")
  if (next && !endsClause(doc, i) && unknownSurname(next.norm) && (speechLike(doc) || isCap(doc, i + 1))) return [i, i + 2];
  return [i, i + 1];
}

/** A word that can only be a surname here: letters, no function word, no ordinary or dictionary word ("ling", "okafor"). */
const unknownSurname = (w: string) => /^\p{L}[\p{L}'-]*$/u.test(w) && unknownWord(w) && !ordinaryWord(w) && !englishWord(w) && !PLACE_WORDS.has(w);

/** Nothing more of a sentence at word k, or a word that follows a name ("this is will speaking", "... from"). */
const NAME_ENDS = new Set([...AFTER_THIS_IS, 'and', 'how', 'i', "i'm", 'im', 'thanks', 'thank', 'hi', 'hello', 'again', 'too', 'yes', 'yeah', 'ok', 'okay', 'please', 'speaking', 'here']);
const endsAt = (doc: Doc, k: number) => k >= doc.words.length || endsClause(doc, k - 1) || NAME_ENDS.has(doc.words[k].norm);
/** A cue word taken as a name only when it is a listed name or no ordinary word ("i'm leaving from boston"). */
const notWord = (w: string) => known(w) || !(COMMON_WORDS.has(w) || /(ing|ed|ly)$/.test(w));

/** Words that open a turn and may be followed by the name of who is addressed: "Okay Amber, and ...", "sorry angus could you ...". */
const VOCATIVE = new Set(['okay', 'ok', 'sorry', 'alright', 'thanks', 'hi', 'hello', 'hey', 'bye', 'goodbye', 'great', 'perfect', 'yes', 'yeah', 'right', 'well']);
/** Words before an opening word that make it an adjective ("in a great mood", "the right one", "so perfect"). */
const MODIFIED = new Set(['a', 'an', 'the', 'very', 'so', 'really', 'pretty', 'quite', 'too', 'most', 'more', 'not', 'all']);
/** Words addressed that are no names: "sorry sir could you", "Thanks, Team,", "okay guys and ...". */
const NOT_ADDRESSED = new Set(`sir maam ma'am madam miss guys guy everyone everybody folks all team man dude buddy honey dear love mate friend
boss again then now so though well yeah yes no great perfect cool good fine sure right okay ok thanks there again anyway`.split(/\s+/));
/** Words that open what is said next, after a name's cue ends a sentence unsaid: "not my maiden name great i have ...". */
const DISCOURSE = new Set([...NOT_ADDRESSED, 'previously', 'actually', 'alright', 'also', 'so', 'um', 'uh', 'and', 'but']);
/** What follows a name addressed in speech ("okay riaan and can you ...", "sorry alva could you ..."). */
const AFTER_ADDRESSED = new Set(['and', 'could', 'can', 'would', 'will', 'i', "i'm", 'im', 'please', 'one', 'just', 'let', 'so', 'you', 'we', 'how', 'what', 'did', 'do']);
/** Roles a name is the subject of: "Sam Munk is the primary card holder", "fenne little is the account owner". */
const HOLDER = /^(holder|cardholder|owner|policyholder|subscriber|member|beneficiary|user|contact|payer)$/;

/**
 * Word i as a name addressed or named before a role, said (lower case): a listed name that is no ordinary word
 * ("amber", "chase") or a word on no list at all ("riaan", "zeyd"); "jordan", "maya" stay unmasked there.
 */
const saidName = (w: string) => !STOP.has(w) && !NOT_ADDRESSED.has(w) && !/\d/.test(w) && (((FIRST_NAMES.has(w) || LAST_NAMES.has(w)) && !COMMON_WORDS.has(w)) || (w.length >= 3 && !ordinaryWord(w)));
/** The same, written: capitalised, not a place unless a listed name, and not an ordinary word unless a name list has it ("Hazel"). */
const writtenName = (doc: Doc, i: number) => {
  const w = doc.words[i]?.norm ?? '';
  return isCap(doc, i) && /^[\p{L}][\p{L}'-]*$/u.test(w) && !STOP.has(w) && !NOT_ADDRESSED.has(w) && (known(w) || !PLACE_WORDS.has(w)) && (known(w) || !ordinaryWord(w) || humanNames().has(w));
};

/**
 * A name addressed after a turn's opening word ("Okay Amber, and can you spell ...", "Sorry Chase, could you ...",
 * "sorry angus could you repeat that", "tell gry i said thanks"): written, one or two capitalised words closed by a
 * comma or the sentence's end; said, one word with what follows a name addressed after it.
 */
function addressed(doc: Doc, i: number): [number, number] | undefined {
  const w = doc.words;
  if (!speechLike(doc)) {
    // "Okay Amber," or "Sorry, Chase," (not across a sentence's end: "Okay. Billing, ...")
    if ((endsClause(doc, i) && !/,["')]*$/.test(w[i].raw)) || !writtenName(doc, i + 1)) return undefined;
    let k = i + 2;
    if (!endsClause(doc, i + 1) && writtenName(doc, k) && (known(w[k].norm) || !ordinaryWord(w[k].norm))) k++;
    return k >= w.length || endsClause(doc, k - 1) ? [i + 1, k] : undefined;
  }
  if (!saidName(w[i + 1]?.norm ?? '')) return undefined;
  return i + 2 >= w.length || AFTER_ADDRESSED.has(w[i + 2].norm) ? [i + 1, i + 2] : undefined;
}

/** What follows the one told ("tell gry i said thanks", "tell Summer at the front desk that ...", "tell Jo to call me"). */
const TOLD_NEXT = /^(i|we|that|at|to)$/;
/**
 * The one told, after "tell" (w[i]) and before TOLD_NEXT: a name addressed, or a name that is also a word
 * ("Tell Summer at the front desk that ..."; written, capitalised): "tell them", "tell time" are none.
 */
function toldName(doc: Doc, i: number): [number, number] | undefined {
  const h = doc.words[i + 1]?.norm ?? '';
  const word = WORD_NAMES.has(h) && !STOP.has(h) && !endsClause(doc, i) && (speechLike(doc) || isCap(doc, i + 1));
  return (speechLike(doc) ? saidName(h) : writtenName(doc, i + 1)) || word ? [i + 1, i + 2] : undefined;
}

/** What opens a turn before "it's X" said as an answer: "its thomas and ...", "yeah it's Thomas, and ...". */
const ANSWER_OPENER = /^(yes|yeah|yep|ok|okay|so|oh|um|uh|well|sure|right|and)$/;
/**
 * A listed given name that is no ordinary word or place, said as the answer "it's X" at the start of a turn and
 * closed there or by "and" ("its thomas and the email on file is ..."): "it's chase and ..." may be the bank, and
 * is masked (the lesser harm); "it's fine and", "it's april and" are none.
 */
function answeredName(doc: Doc, i: number): [number, number] | undefined {
  const w = normReader(doc);
  const opens = i === 0 || endsSentence(doc, i - 1) || (ANSWER_OPENER.test(w(i - 1)) && (i === 1 || endsClause(doc, i - 2)));
  const h = w(i + 1);
  if (!opens || endsClause(doc, i) || !FIRST_NAMES.has(h) || COMMON_WORDS.has(h) || ordinaryWord(h) || PLACE_WORDS.has(h) || !nameWord(doc, i + 1)) return undefined;
  const r = nameAt(doc, i + 1, 2)!;
  return endsAt(doc, r[1]) ? r : undefined;
}

/** Who owns a "last name" said as a noun, not a label: "my last name so ...", "what's your last name so I can ...". */
const NAME_OWNER = /^(my|your|his|her|their|our|the|a|an|that|this|same|whose|what's|whats|which|its|it's)$/;
/**
 * A one-word surname that is also a function word ("so", "do", "ho") after "last name" said as a label, right after
 * the given name or its spelling ("put it under jay won j a e w o n last name so and text ..."): not after "my",
 * "the", "your" (a noun there: "my last name so I can ..."), and closed by "and", a spelling or the end.
 */
function labelledSurname(doc: Doc, i: number): [number, number] | undefined {
  const w = normReader(doc);
  const x = w(i + 1);
  if (i < 2 || NAME_OWNER.test(w(i - 2)) || (!/^\p{L}$/u.test(w(i - 2)) && !nameWord(doc, i - 2)) || endsClause(doc, i - 2)) return undefined;
  if (!/^\p{L}{2,3}$/u.test(x) || !STOP.has(x) || endsClause(doc, i)) return undefined;
  if (!speechLike(doc) && !isCap(doc, i + 1)) return undefined;
  const after = i + 2 >= doc.words.length || endsClause(doc, i + 1) || w(i + 2) === 'and' || (/^\p{L}$/u.test(w(i + 2)) && /^\p{L}$/u.test(w(i + 3)));
  return after ? [i + 1, i + 2] : undefined;
}

/** The name (one to three words) ending at word `end` (exclusive) before "is the ... holder": "Cooper Keeling is the primary card holder". */
function nameBefore(doc: Doc, end: number): [number, number] | undefined {
  let s = end;
  const ok = (i: number) => (speechLike(doc) ? saidName(doc.words[i].norm) || known(doc.words[i].norm) : writtenName(doc, i)) && !(i < end - 1 && endsClause(doc, i));
  while (s > 0 && end - s < 3 && ok(s - 1) && !(s < end && endsClause(doc, s - 1))) s--;
  // said: a lone listed name that is also an ordinary word is not enough ("the little is ...")
  if (s === end || (speechLike(doc) && end - s === 1 && !saidName(doc.words[s].norm))) return undefined;
  return [s, end];
}

/** What pushes a found name's words [r0, r1) to `out` (made once per doc: a function, not a closure named per call). */
function personPusher(doc: Doc, out: Detection[], recognizer: string): (r: [number, number] | undefined, c: number) => number | undefined {
  return (r, c) => r && out.push(fromWords(doc, 'Person', r[0], r[1], c, recognizer));
}

function cues(doc: Doc): Detection[] {
  const out: Detection[] = [];
  const w = doc.words.map((x) => x.norm);
  const push = personPusher(doc, out, 'person-cue');
  for (let i = 0; i < w.length; i++) {
    // "my name is X", "name's X", "names X"; "the rep's name was X" (a listed name or a word no list calls
    // ordinary: "the name was spelled wrong" is none)
    if ((w[i] === 'name' && (w[i + 1] === 'is' || w[i + 1] === 'was')) || w[i] === "name's") {
      const at = w[i] === "name's" ? i + 1 : i + 2;
      // a filler or a title before the name ("my name is Mr. Will": the title rule reads the name)
      const skip = w[at] === 'uh' || w[at] === 'um' || HONORIFIC.has(w[at]?.replace(/\.$/, '') ?? '') ? 1 : 0;
      let r = nameAt(doc, at + skip) ?? wordNameAt(doc, at + skip);
      if (r && w[i + 1] === 'was' && !(known(w[r[0]]) || unknownWord(w[r[0]]) || (!speechLike(doc) && isCap(doc, r[0])))) r = undefined;
      push(r, 0.85);
      if (r) push(otherName(doc, r[1]), 0.75);
    }
    // "last name X", "first name is X", "surname X", "maiden name is X"
    // (not across a sentence's end, "not my maiden name. Great, ..."; nor a word that opens the next thing said:
    // "maiden name great i have ...")
    if (((w[i] === 'name' && /^(last|first|middle|maiden|full|family|given)$/.test(w[i - 1] ?? '')) || w[i] === 'surname') && !/[.!]["')\]]*$/.test(doc.spoken ? '' : doc.words[i].raw) && !DISCOURSE.has(w[i + 1] ?? '')) {
      let at = i + 1;
      while (/^(is|it's|its|uh|um|of|the|account|holder)$/.test(w[at] ?? '')) at++;
      push(nameAt(doc, at), 0.85);
    }
    // "last name so and ...": a one-word surname that is also a function word, after "last name" said as a label
    if (w[i] === 'name' && /^(last|family)$/.test(w[i - 1] ?? '')) push(labelledSurname(doc, i), 0.75);
    // "oh con quo the family name", "Okonkwo is my last name": the name before what it is
    if (w[i] === 'name' && /^(last|family|sur)$/.test(w[i - 1] ?? '') && /^(the|my|our|his|her|their)$/.test(w[i - 2] ?? '')) {
      const end = w[i - 3] === 'is' || w[i - 3] === 'was' ? i - 3 : i - 2;
      if (end > 0 && !endsSentence(doc, end - 1)) push(nameBefore(doc, end), 0.7);
    }
    // "this is X speaking", "this is X from ..."
    if (w[i] === 'this' && w[i + 1] === 'is') {
      const r = nameAt(doc, i + 2, 2);
      if (r && notWord(w[r[0]]) && (AFTER_THIS_IS.has(w[r[1]] ?? '') || (known(w[r[0]]) && !AMBIGUOUS.has(w[r[0]])))) push(r, 0.85);
      // "this is Will", "this is may chen from billing"
      const n = wordNameAt(doc, i + 2);
      if (n && (n[1] - n[0] === 2 || endsAt(doc, n[1]))) push(n, 0.8);
    }
    // "Is this May Ling? Hi, it's Owen", "is this priya": who a call asks for as it opens (a listed name that is
    // no ordinary word, a word on no list, a name that is also a word with a surname), closed there or by a greeting
    if (w[i] === 'is' && w[i + 1] === 'this' && (i === 0 || endsClause(doc, i - 1) || /^(hi|hello|hey|yes|yeah|um|uh|oh|so|and|morning|afternoon|evening)$/.test(w[i - 1] ?? ''))) {
      const n = wordNameAt(doc, i + 2);
      if (n && (n[1] - n[0] === 2 || endsAt(doc, n[1]))) push(n, 0.75);
      const r = nameAt(doc, i + 2, 2);
      const h = w[i + 2] ?? '';
      if (r && !n && ((FIRST_NAMES.has(h) && !AMBIGUOUS.has(h) && !COMMON_WORDS.has(h)) || (unknownWord(h) && !ordinaryWord(h) && !englishWord(h) && !PLACE_WORDS.has(h))) && endsAt(doc, r[1])) push(r, 0.75);
    }
    // "i'm X", "i am X" only for listed names or with "calling/speaking"
    if (w[i] === "i'm" || (w[i] === 'i' && w[i + 1] === 'am') || w[i] === 'im') {
      const at = w[i] === 'i' ? i + 2 : i + 1;
      const r = nameAt(doc, at, 2);
      if (r && notWord(w[r[0]]) && ((FIRST_NAMES.has(w[r[0]]) && !AMBIGUOUS.has(w[r[0]])) || AFTER_THIS_IS.has(w[r[1]] ?? ''))) push(r, 0.75);
      const n = wordNameAt(doc, at);
      if (n && (n[1] - n[0] === 2 || (endsAt(doc, n[1]) && !/^(and|i|i'm|im)$/.test(w[n[1]] ?? '')))) push(n, 0.7);
    }
    // "call me X", "speak to X", "speaking with X", "ask for X", "under the name X"
    if ((w[i] === 'call' && w[i + 1] === 'me') || (/^(speak|speaking|talk|talking|spoke|ask)$/.test(w[i]) && /^(to|with|for)$/.test(w[i + 1] ?? ''))) {
      const r = nameAt(doc, i + 2, 2);
      if (r && (known(w[r[0]]) || (!doc.spoken && isCap(doc, r[0])))) push(r, 0.75);
      const n = wordNameAt(doc, i + 2);
      if (n && (n[1] - n[0] === 2 || endsAt(doc, n[1]) || w[i] === 'call')) push(n, 0.75);
    }
    // "my wife Priya Raman", "our son, Ethan", "my kid Mali"
    if (RELATION.has(w[i]) && /^(my|our|his|her|their|your)$/.test(w[i - 1] ?? '') && !endsSentence(doc, i)) {
      const r = nameAt(doc, i + 1, 2);
      // written, a first name that is also a word stands with a capitalised surname no list calls a word ("My daughter Violet Hald")
      // (said, a word compromise reads as an adverb, verb or adjective is none: "my husband usually deals with it")
      if (r && (doc.spoken ? (FIRST_NAMES.has(w[r[0]]) && !AMBIGUOUS.has(w[r[0]])) || (unknownWord(w[r[0]]) && !wordClassNotName(w[r[0]])) : isCap(doc, r[0]) && (!COMMON_WORDS.has(w[r[0]]) || (r[1] - r[0] === 2 && isCap(doc, r[0] + 1) && !COMMON_WORDS.has(w[r[0] + 1]))))) push(r, 0.75);
    }
    // "my husband Will is on the account", "my son art has the card": a name that is also a word, after a
    // relation and before a verb no modal or noun takes there (or the clause's end, written)
    if (RELATION.has(w[i]) && /^(my|our|his|her|their|your)$/.test(w[i - 1] ?? '') && !endsClause(doc, i) && WORD_NAMES.has(w[i + 1] ?? '') && (speechLike(doc) || isCap(doc, i + 1))) {
      if (AFTER_NAME_VERB.test(w[i + 2] ?? '') || (!speechLike(doc) && endsClause(doc, i + 1) && i + 2 < w.length)) push([i + 1, i + 2], 0.7);
      // "Put my son Will on the account", "add my wife may as a user": written, capitalised in mid-sentence; said,
      // before a word no modal takes after it ("on", "as an", "to the")
      else if ((!speechLike(doc) && !endsClause(doc, i + 1)) || AFTER_WORD_NAME.test(w[i + 2] ?? '') || (/^(as|to)$/.test(w[i + 2] ?? '') && /^(a|an|the|my|our|his|her)$/.test(w[i + 3] ?? ''))) push([i + 1, i + 2], 0.7);
    }
    // "my son is Will Fargo", "my daughter is may": a name that is also a word, after a relation and "is" (no modal
    // follows "is"), with a surname after it if there is one
    if (RELATION.has(w[i]) && /^(my|our|his|her|their|your)$/.test(w[i - 1] ?? '') && /^(is|was)$/.test(w[i + 1] ?? '') && !endsClause(doc, i + 1) && WORD_NAMES.has(w[i + 2] ?? '') && (speechLike(doc) || isCap(doc, i + 2))) {
      push(wordNameAt(doc, i + 2) ?? [i + 2, i + 3], 0.7);
    }
    // "and Dean, her husband, pays it", "dean her husband pays it": a name put beside who they are
    if (RELATION.has(w[i]) && /^(my|our|his|her|their)$/.test(w[i - 1] ?? '') && i >= 2) {
      const at = i - 2;
      const open = at === 0 || /^(and|but|or|then|so|also)$/.test(w[at - 1] ?? '') || (!speechLike(doc) && endsClause(doc, at - 1));
      const h = w[at];
      const comma = !speechLike(doc) && /,["')]*$/.test(doc.words[at].raw);
      const ok = speechLike(doc) ? FIRST_NAMES.has(h) || WORD_NAMES.has(h) || (unknownWord(h) && !ordinaryWord(h)) : comma && isCap(doc, at) && (known(h) || WORD_NAMES.has(h) || unknownWord(h));
      if (open && ok && nameWord(doc, at) && !NOT_ADDRESSED.has(h) && !VOCATIVE.has(h)) push([at, at + 1], 0.7);
    }
    // "Is Art still there?", "is priya around today": a person asked for
    if (w[i] === 'is' && (i === 0 || endsClause(doc, i - 1) || /^(so|and|hi|hello|hey|um|uh|oh)$/.test(w[i - 1] ?? '')) && (w[i + 2] === 'still' || w[i + 2] === 'there' || w[i + 2] === 'around' || w[i + 2] === 'available' || w[i + 2] === 'in')) {
      const h = w[i + 1] ?? '';
      const after = w[i + 2] === 'still' ? w[i + 3] ?? '' : w[i + 2];
      const ok = speechLike(doc) ? FIRST_NAMES.has(h) || WORD_NAMES.has(h) : isCap(doc, i + 1) && (known(h) || WORD_NAMES.has(h) || unknownWord(h));
      if (ok && nameWord(doc, i + 1) && /^(there|around|available|in|working|here|on)$/.test(after)) push([i + 1, i + 2], 0.7);
    }
    // "put me through to Odalys", "transfer me to Will please", "connect me with Mr Abara"
    if (/^(through|me)$/.test(w[i]) && /^(to|with)$/.test(w[i + 1] ?? '') && (w[i] === 'through' ? w[i - 1] === 'me' : /^(transfer|connect|put|forward|send)$/.test(w[i - 1] ?? ''))) {
      const h = w[i + 2] ?? '';
      const r = nameAt(doc, i + 2, 2);
      // (a department is none: "transfer me to Loyalty", "to Member Services")
      const ok = (FIRST_NAMES.has(h) && !AMBIGUOUS.has(h)) || (unknownWord(h) && !ordinaryWord(h) && !englishWord(h));
      if (r && ok && (speechLike(doc) || isCap(doc, i + 2)) && !PLACE_WORDS.has(h)) push(r, 0.75);
      const n = wordNameAt(doc, i + 2);
      if (n && (n[1] - n[0] === 2 || endsAt(doc, n[1]))) push(n, 0.7);
    }
    // "someone called Shireen", "a guy named Rolf"
    if ((w[i] === 'called' || w[i] === 'named') && SOMEONE.has(w[i - 1] ?? '') && !endsClause(doc, i)) {
      const h = w[i + 1] ?? '';
      const ok = speechLike(doc) ? ((FIRST_NAMES.has(h) || unknownWord(h)) && !ordinaryWord(h)) || WORD_NAMES.has(h) : isCap(doc, i + 1) && (known(h) || WORD_NAMES.has(h) || unknownWord(h));
      if (ok && nameWord(doc, i + 1)) {
        const r = nameAt(doc, i + 1, 2) ?? [i + 1, i + 2];
        push(r, 0.7);
        push(otherName(doc, r[1]), 0.7);
      }
    }
    // "Arne's address", "Sumaya's kid"
    // (not across a comma: "I ordered from Wendy's, order #48213" is a shop's, the order no one's)
    if (/'s$/.test(w[i]) && OWNED.has(w[i + 1] ?? '') && !endsClause(doc, i)) {
      const base = w[i].slice(0, -2);
      const startOk = doc.spoken ? (FIRST_NAMES.has(base) && !AMBIGUOUS.has(base)) || unknownWord(base) : isCap(doc, i) && (known(base) || unknownWord(base)) && !AMBIGUOUS.has(base);
      if (startOk && !PLACE_WORDS.has(base)) push([i, i + 1], 0.7);
    }
    // "said Honoré", "thanks, Jerome", "according to Hiroshi", "an agent named Marcus"
    // (not across a sentence end: "Thanks. Billing zip is ...", "thanks. DOB is ...")
    if ((ADDRESSING.has(w[i]) || (w[i] === 'to' && w[i - 1] === 'according') || (w[i] === 'you' && w[i - 1] === 'thank')) && !endsSentence(doc, i)) {
      const r = nameAt(doc, i + 1, 2);
      if (r) {
        const h = w[r[0]];
        const ok = doc.spoken ? FIRST_NAMES.has(h) && !AMBIGUOUS.has(h) : isCap(doc, r[0]) && (known(h) || unknownWord(h)) && !PLACE_WORDS.has(h) && !(AMBIGUOUS.has(h) && r[1] - r[0] === 1);
        if (ok) push(r, 0.7);
      }
      // "thanks, Will.", "bye may": a word name only where the sentence ends
      const n = wordNameAt(doc, i + 1);
      if (n && (n[1] >= w.length || endsClause(doc, n[1] - 1))) push(n, 0.7);
    }
    // "the name on the account is X", "account holder is X"
    if (w[i] === 'is' && (/^(holder|cardholder|owner)$/.test(w[i - 1] ?? '') || phraseBefore(w, i, 3) === 'on the account')) {
      const r = nameAt(doc, i + 1, 3);
      // (a name that is also a word, after so strong a cue, is the name: "the account holder is faith baker")
      if (r && (known(w[r[0]]) || WORD_NAMES.has(w[r[0]]) || (!doc.spoken && isCap(doc, r[0])))) push(r, 0.8);
    }
    // a name addressed: "Okay Amber, and ...", "sorry angus could you ...", "tell gry i said thanks"
    // (not an adjective: "in a great mood", "the right one", "so perfect")
    if ((VOCATIVE.has(w[i]) && !MODIFIED.has(w[i - 1] ?? '')) || (w[i] === 'tell' && TOLD_NEXT.test(w[i + 2] ?? ''))) {
      push(addressed(doc, i) ?? (w[i] === 'tell' ? toldName(doc, i) : undefined), 0.7);
    }
    // "Ask Nathanial to call me back", "ask priya to ring me": a listed given name (written, capitalised) before "to"
    if (w[i] === 'ask' && w[i + 2] === 'to' && !AMBIGUOUS.has(w[i + 1]) && (speechLike(doc) ? FIRST_NAMES.has(w[i + 1]) : isCap(doc, i + 1) && (known(w[i + 1]) || unknownWord(w[i + 1])))) push([i + 1, i + 2], 0.7);
    // "ask penny to call me back": a name that is also a word, asked to get back to the caller
    else if (w[i] === 'ask' && w[i + 2] === 'to' && /^(call|ring|phone|text|email|e-mail|contact|get)$/.test(w[i + 3] ?? '') && WORD_NAMES.has(w[i + 1] ?? '') && !STOP.has(w[i + 1]) && !endsClause(doc, i) && (speechLike(doc) || isCap(doc, i + 1))) push([i + 1, i + 2], 0.7);
    // "Sam Munk is the primary card holder", "the account owner is ..." (above) read the other way
    if (w[i] === 'is' && w[i + 1] === 'the' && w.slice(i + 2, i + 6).some((x) => HOLDER.test(x))) push(nameBefore(doc, i), 0.75);
    // "it's Ellen-Margrethe Esben Skov calling", "its riaan speaking"
    if ((w[i] === "it's" || w[i] === 'its') && i + 1 < w.length) {
      const r = nameAt(doc, i + 1, 3);
      // "here" only after a word that is no ordinary word: "its sunny here" is the weather
      // "Hi Dolores, it's Frank again": a listed given name after a greeting, before "again" or "here"
      const greeted = w.slice(Math.max(0, i - 3), i).some((x) => /^(hi|hello|hey|morning|afternoon|evening)$/.test(x));
      if (greeted && FIRST_NAMES.has(w[i + 1]) && nameWord(doc, i + 1) && /^(again|here|calling|speaking)$/.test(w[i + 2] ?? '')) push([i + 1, i + 2], 0.75);
      if (r && notWord(w[r[0]]) && (/^(speaking|calling)$/.test(w[r[1]] ?? '') || (w[r[1]] === 'here' && !ordinaryWord(w[r[0]]) && !AMBIGUOUS.has(w[r[0]])))) push(r, 0.8);
      push(answeredName(doc, i), 0.7);
    }
    // honorifics
    // (spoken "doctor" only before a listed surname or a word that is no ordinary word: "the doctor said")
    if (HONORIFIC.has(w[i]) && !TITLED_BRAND.test(`${w[i].replace(/\.$/, '')} ${w[i + 1] ?? ''}`) && (!doc.spoken || w[i] !== 'doctor' || LAST_NAMES.has(w[i + 1] ?? '') || unknownWord(w[i + 1] ?? ''))) push(nameAt(doc, i + 1, 2), doc.spoken ? 0.7 : 0.85);
  }
  return out;
}

/** Words [i, k) stand in a place name: "Santa Rosa", "San Jose", "Virginia Beach". */
const inPlace = (doc: Doc, i: number, k: number) => PLACE_PREFIX.has(doc.words[i - 1]?.norm.replace(/\.$/, '') ?? '') || PLACE_PREFIX.has(doc.words[i]?.norm ?? '') || PLACE_SUFFIX.has(doc.words[k]?.norm ?? '') || inStreet(doc, i, k) || cityAfterPlaceWord(doc, i, k);

const NUMBER_WORD = /^(\d+[a-z]?(\/\d+[a-z]?)?|(zero|oh|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand)[a-z]?)$/;
const isNumberWord = (doc: Doc, i: number) => NUMBER_WORD.test(doc.words[i]?.norm ?? '');
/** A number said as one small word: as likely a count as a house number. */
const SMALL_COUNT = /^(one|two|three|four|five|six|seven|eight|nine|ten)$/;
const streetType = (w: string) => STREET_SUFFIX.has(w) || STREET_TYPES_MORE.has(w) || FOREIGN_STREET.test(w);
/**
 * Words [i, k) name a street, not a person: a street type right after them (or ending them) and a house number
 * before them or after the type ("527 Justin Meadow", "Roberts Väg 8", "thirty one cameron circuit"). Both are
 * needed: "Tom Hill" and "Mary Lane" alone stay names. Returns the whole street, number and type included (it is
 * masked as an address: what was masked as a name stays masked), or undefined.
 */
export function streetSpan(doc: Doc, i: number, k: number): [number, number] | undefined {
  return streetAfterPrefix(doc, i, k) ?? streetBeforeType(doc, i, k);
}

/** A name word as a street's may be: letters (capitalised in written text). */
const streetNameWord = (doc: Doc, i: number) => /^\p{L}[\p{L}'-]*$/u.test(doc.words[i]?.norm ?? '') && !STOP.has(doc.words[i].norm) && (speechLike(doc) || isCap(doc, i));

/**
 * A street word before the name and a house number after it, the name at most three words ("Avenida Diana Vicente
 * 44", "praça ariana esteves eighty seven", "Rua João Pacheco 516"): the street, prefix and number included.
 */
function streetAfterPrefix(doc: Doc, i: number, k: number): [number, number] | undefined {
  let p = i - 1;
  while (p >= 0 && i - p <= 2 && !STREET_OPENERS.has(doc.words[p].norm) && streetNameWord(doc, p) && !endsClause(doc, p)) p--;
  if (p < 0 || !STREET_OPENERS.has(doc.words[p].norm) || endsClause(doc, p)) return undefined;
  let e = k;
  while (e < doc.words.length && e - p <= 4 && !isNumberWord(doc, e) && streetNameWord(doc, e) && !endsClause(doc, e - 1)) e++;
  if (!isNumberWord(doc, e) || endsClause(doc, e - 1)) return undefined;
  while (e < doc.words.length && isNumberWord(doc, e) && !endsClause(doc, e - 1)) e++;
  return [p, e];
}

function streetBeforeType(doc: Doc, i: number, k: number): [number, number] | undefined {
  let t = k;
  if (k - i >= 2 && streetType(doc.words[k - 1].norm)) t = k - 1;
  // the type may follow a second name word ("Ali Lindströms Gata")
  else if (!streetType(doc.words[t]?.norm ?? '') && streetType(doc.words[t + 1]?.norm ?? '') && !endsClause(doc, t)) t++;
  if (t >= doc.words.length || !streetType(doc.words[t].norm) || (t >= k && endsClause(doc, t - 1))) return undefined;
  if (!isNumberWord(doc, i - 1) && !isNumberWord(doc, t + 1)) return undefined;
  // A count of things is no house number: "four green lights", "two silver points". With a type that is also a
  // common noun (not a core street suffix), one small number said before the name and none after is not enough.
  if (!STREET_SUFFIX.has(doc.words[t].norm) && !isNumberWord(doc, t + 1) && !isNumberWord(doc, i - 2) && SMALL_COUNT.test(doc.words[i - 1].norm)) return undefined;
  let s = i;
  while (s > 0 && isNumberWord(doc, s - 1) && !endsClause(doc, s - 1)) s--;
  let e = t + 1;
  while (e < doc.words.length && isNumberWord(doc, e) && !endsClause(doc, e - 1)) e++;
  return [s, e];
}
const inStreet = (doc: Doc, i: number, k: number) => streetSpan(doc, i, k) !== undefined;

const LOCATIVE = new Set(['near', 'in', 'from', 'to', 'at', 'around', 'outside', 'visited', 'visit', 'visiting', 'towards', 'toward', 'via']);
/**
 * Words before a town that is also a given name ("the store in Tyler", "near Eugene"): only words that place what
 * follows. Not "from", "left", "visited", "to", "at", "with": "a call from Tyler", "I left Eugene a message",
 * "I visited Charlotte in hospital" are people, and a name left unmasked is a leak.
 */
const NAME_CITY_CUE = new Set(['near', 'in', 'around', 'outside', 'towards', 'toward']);
/** What a place name before it makes of it: "the Charlotte branch", "our Madison office". */
const PLACE_NOUN = new Set(['branch', 'store', 'office', 'location', 'mall', 'airport', 'station', 'center', 'centre', 'outlet', 'shop', 'warehouse', 'hub', 'depot', 'campus', 'area', 'clinic', 'hospital']);
/**
 * One word that is a city, after "near", "in", "from"...: "a store near Charlotte", "the branch in Madison"; a
 * town that is also a given name only after a word that places it ("in Tyler", not "to Tyler"), or between "the"
 * and a place noun ("the Charlotte branch").
 */
const cityAfterPlaceWord = (doc: Doc, i: number, k: number) => {
  if (k - i !== 1) return afterDirection(doc, i);
  const w = doc.words[i].norm;
  const before = doc.words[i - 1]?.norm ?? '';
  if (PLACE_WORDS.has(w) && LOCATIVE.has(before)) return true;
  if (NAME_CITIES.has(w) && (NAME_CITY_CUE.has(before) || (/^(the|our|your)$/.test(before) && PLACE_NOUN.has(doc.words[k]?.norm ?? '')))) return true;
  return afterDirection(doc, i);
};
const COMPASS = new Set(['north', 'south', 'east', 'west']);
/** A name after a compass word in an address is a town ("South Isabelle, NT", "east skye western australia"): after a comma or a number's word. */
const afterDirection = (doc: Doc, i: number) => COMPASS.has(doc.words[i - 1]?.norm ?? '') && (speechLike(doc) || isCap(doc, i - 1)) && i >= 2 && (endsClause(doc, i - 2) || streetType(doc.words[i - 2].norm) || isNumberWord(doc, i - 2));

/**
 * Word i as the word that says a letter in a spelling ("P for Peter", "s as in sam", "d like david"): a letter and
 * "for", "as in", "like" before it, and the word starts with that letter. A spelling aid, not someone named.
 */
const normAt = (doc: Doc, k: number) => doc.words[k]?.norm ?? '';

export function spellingWord(doc: Doc, i: number): boolean {
  // (called per name word: looks at the three words before i only, never the whole text)
  const x = normAt(doc, i);
  let k = i - 1;
  if (normAt(doc, k) === 'in' && normAt(doc, k - 1) === 'as') k--;
  else if (!/^(for|like|as)$/.test(normAt(doc, k))) return false;
  const letter = normAt(doc, k - 1);
  // "i like ivan", "a for amy"? the pronoun and the article are letters only in "i as in india"
  if ((letter === 'i' || letter === 'a') && normAt(doc, k) !== 'as') return false;
  return /^\p{L}$/u.test(letter) && x.startsWith(letter) && x.length > 1;
}

function nameList(doc: Doc): Detection[] {
  const out: Detection[] = [];
  const w = doc.words.map((x) => x.norm);
  for (let i = 0; i < w.length; i++) {
    const first = FIRST_NAMES.has(w[i]);
    const last = LAST_NAMES.has(w[i]);
    if (!first && !last) continue;
    if (nameUsedAsWord(doc, i) || spellingWord(doc, i)) continue;
    const street = streetSpan(doc, i, i + 1) ?? (!speechLike(doc) && isCap(doc, i + 1) ? streetSpan(doc, i, i + 2) : undefined);
    if (street) {
      out.push(fromWords(doc, 'Address', street[0], street[1], 0.6, 'person-street'));
      i = street[1] - 1;
      continue;
    }
    if (inPlace(doc, i, i + 1) || (!speechLike(doc) && isCap(doc, i + 1) && inPlace(doc, i, i + 2))) {
      i++;
      continue;
    }
    if (doc.spoken) {
      // lower case: a listed first name that is not a common word, or first+last both listed
      if (first && LAST_NAMES.has(w[i + 1] ?? '') && !STOP.has(w[i + 1])) {
        out.push(fromWords(doc, 'Person', i, i + 2, AMBIGUOUS.has(w[i]) && AMBIGUOUS.has(w[i + 1]) ? 0.45 : 0.7, 'person-list'));
        i++;
      } else if (first && !AMBIGUOUS.has(w[i])) out.push(fromWords(doc, 'Person', i, i + 1, 0.6, 'person-list'));
      continue;
    }
    if (!isCap(doc, i)) continue;
    let k = i + 1;
    while (k < i + 3 && isCap(doc, k) && nameWord(doc, k) && !endsClause(doc, k - 1)) k++;
    const sentenceStart = i === 0 || endsClause(doc, i - 1);
    const tail = w[k - 1];
    if (k - i >= 2 && ((first && !AMBIGUOUS.has(w[i])) || (LAST_NAMES.has(tail) && !AMBIGUOUS.has(tail)) || (first && LAST_NAMES.has(tail)))) out.push(fromWords(doc, 'Person', i, k, 0.75, 'person-list'));
    else if (first && !AMBIGUOUS.has(w[i]) && !sentenceStart) out.push(fromWords(doc, 'Person', i, k, 0.65, 'person-list'));
    else if (first && !AMBIGUOUS.has(w[i])) out.push(fromWords(doc, 'Person', i, k, 0.55, 'person-list'));
    i = k - 1;
  }
  return out;
}

/**
 * A word of [s, e) is an ordinary word, written in lower case (or said), and on no name list: compromise read a
 * name into "the grace period" ("period" is no name); "Will Turner", "may chen" stay.
 */
function ordinaryIn(doc: Doc, s: number, e: number): boolean {
  for (let i = s; i < e; i++) {
    const w = doc.words[i].norm;
    if ((speechLike(doc) || !isCap(doc, i)) && !known(w) && ordinaryWord(w)) return true;
  }
  return false;
}

export function compromisePeople(doc: Doc, confidence = 0.6): Detection[] {
  const found = matchesIn(doc.text, (d) => d.people());
  return found
    .filter((p) => p.offset && p.offset.length > 1)
    .map((p) => {
      let { start, length } = p.offset;
      const s = doc.text.slice(start, start + length);
      const trimmed = s.replace(/[^\p{L}]+$/u, '');
      const lead = trimmed.length - trimmed.replace(/^[^\p{L}]+/u, '').length;
      start += lead;
      length = trimmed.length - lead;
      return fromChars(doc, 'Person', start, start + length, confidence, 'person-compromise');
    })
    .filter((d) => d.text.length > 1 && !d.text.split(/\s+/).every((x) => PLACE_WORDS.has(x.toLowerCase().replace(/[^\p{L}'-]/gu, ''))))
    .flatMap((d) => {
      if (d.wordStart === undefined) return [d];
      const street = streetSpan(doc, d.wordStart, d.wordEnd!);
      if (street) return [fromWords(doc, 'Address', street[0], street[1], confidence, 'person-street')];
      return inPlace(doc, d.wordStart, d.wordEnd!) || ordinaryIn(doc, d.wordStart, d.wordEnd!) ? [] : [d];
    });
}

export const personRecognizer: Recognizer = (doc) => {
  const src = doc.options.personSources ?? {};
  const out: Detection[] = [];
  if (src.cues !== false) out.push(...cues(doc));
  if (src.nameList !== false) out.push(...nameList(doc));
  // compromise's people() only where the tagger is off (or when asked for by name): with the tagger on it added
  // about 2 points of Person recall on the dev split, all of it in frames the cues now read (a name addressed,
  // "X is the card holder"), at three quarters of detection's time.
  if (src.compromise ?? doc.options.tagger === false) out.push(...compromisePeople(doc));
  return out;
};

/**
 * Names read beside the names already found, after every recognizer has run (detect.ts): the next name of a list
 * ("the two kids, Arjun and Meera"), the other name offered ("Shireen, or Sharon"); a word that only says a letter
 * of a spelling ("P for Peter") is dropped as a name; and a tagged "address" of no address word right before its
 * own spelling ("oh kong kwo o k o n k w o") is the name spelled. Coverage only grows, except for the spelling aid.
 */
export function namesBeside(doc: Doc, detections: readonly Detection[]): Detection[] {
  if (!detections.some((d) => d.kind === 'Person')) return [...detections];
  const w = doc.words;
  const out: Detection[] = [];
  const persons = detections.filter((d) => d.kind === 'Person' && d.wordStart !== undefined);
  // what covers each word, marked once (1: any detection, 2: one of another kind): a lookup per word after, not a
  // scan of every detection (a long call holds thousands)
  const marks = new Uint8Array(w.length);
  for (const d of detections) {
    if (d.wordStart === undefined) continue;
    for (let i = d.wordStart; i < d.wordEnd! && i < w.length; i++) marks[i] |= d.kind === 'Person' ? 1 : 3;
  }
  const covered = (i: number) => (marks[i] ?? 0) !== 0;
  const otherKind = (i: number) => ((marks[i] ?? 0) & 2) !== 0;
  // spelled names by where they start
  const spelledAt = new Map<number, Detection>();
  for (const p of persons) if (p.wordEnd! - p.wordStart! >= 3 && w.slice(p.wordStart, p.wordEnd).every((x) => /^\p{L}$/u.test(x.norm))) spelledAt.set(p.wordStart!, p);
  const listName = (i: number) => {
    const x = w[i]?.norm ?? '';
    if (!nameWord(doc, i) || covered(i) || PLACE_WORDS.has(x) || NOT_ADDRESSED.has(x)) return false;
    return speechLike(doc) ? (FIRST_NAMES.has(x) && !AMBIGUOUS.has(x)) || (unknownWord(x) && !ordinaryWord(x) && !englishWord(x)) : isCap(doc, i) && (known(x) || (unknownWord(x) && !ordinaryWord(x)));
  };
  for (const d of detections) {
    if (d.kind === 'Person' && d.wordEnd === d.wordStart! + 1 && d.recognizer !== 'spelled' && spellingWord(doc, d.wordStart!)) continue;
    if (d.kind === 'Address' && d.recognizer === 'tagger' && d.wordStart !== undefined) {
      // (the run may hold the spelling too)
      let spelled: Detection | undefined;
      for (let at = d.wordStart + 1; at <= d.wordEnd! && !spelled; at++) {
        const p = spelledAt.get(at);
        if (p && p.wordEnd! >= d.wordEnd!) spelled = p;
      }
      const words = w.slice(d.wordStart, spelled?.wordStart ?? d.wordEnd);
      if (spelled && !words.some((x) => /\d/.test(x.norm) || gazetteerTags(x.norm).some((g) => ADDRESS_TAGS.includes(g)))) {
        let s = d.wordStart;
        while (s < d.wordEnd! - 1 && (STOP.has(w[s].norm) || CONTRACTION.test(w[s].norm))) s++;
        out.push({ ...fromWords(doc, 'Person', s, d.wordEnd!, d.confidence, `${d.recognizer}:spelled`), additive: d.additive });
        continue;
      }
    }
    out.push(d);
  }
  for (const p of persons) {
    // a name said in pieces right before its spelling ("fair weather f a i r w e a t h e r")
    if (p.recognizer === 'spelled' && p.wordEnd! - p.wordStart! >= 3 && w.slice(p.wordStart, p.wordEnd).every((x) => /^\p{L}$/u.test(x.norm))) {
      const spelt = w.slice(p.wordStart, p.wordEnd).map((x) => x.norm).join('');
      for (let k = Math.min(3, p.wordStart!); k >= 1; k--) {
        const from = p.wordStart! - k;
        const pieces = w.slice(from, p.wordStart);
        if (pieces.some((x, j) => !/^\p{L}+$/u.test(x.norm) || otherKind(from + j) || (j < k - 1 && endsClause(doc, from + j)))) continue;
        const said = pieces.map((x) => x.norm).join('');
        if (said[0] === spelt[0] && said.length >= 3 && editDistance(said, spelt) <= Math.floor(spelt.length / 3)) {
          out.push(fromWords(doc, 'Person', from, p.wordStart!, 0.7, 'spelled'));
          break;
        }
      }
    }
    pushIf(nameLikeSpelling(doc, p, otherKind), out);
    pushIf(nameBeforeWrittenSpelling(doc, p, otherKind), out);
    const e = p.wordEnd!;
    // "Arjun and Meera", "Arjun, and Meera" (not across a sentence's end)
    if (endsSentence(doc, e - 1)) continue;
    const at = w[e]?.norm === 'and' ? e + 1 : undefined;
    if (at !== undefined && listName(at) && (at + 1 >= w.length || endsClause(doc, at) || /^(and|are|were|is|both|too)$/.test(w[at + 1].norm))) out.push(fromWords(doc, 'Person', at, at + 1, 0.65, 'person-list'));
    // "make the card out to rose and bill its their anniversary": a name that is also a word ("bill", "will") after
    // a name a cue or a frame found, closed there (the end, "it's", "both"): no verb or modal ends a clause so
    else if (at !== undefined && /^person-(cue|frame)$/.test(p.recognizer) && wordNameJoined(doc, at) && !covered(at) && (at + 1 >= w.length || endsClause(doc, at) || /^(its|it's|both|too|please|thanks|are|were)$/.test(w[at + 1].norm))) out.push(fromWords(doc, 'Person', at, at + 1, 0.6, 'person-list'));
    // "Shireen, or Sharon, something like that"
    const o = otherName(doc, e);
    if (o && !covered(o[0]) && !PLACE_WORDS.has(w[o[0]].norm)) out.push(fromWords(doc, 'Person', o[0], o[1], 0.65, 'person-cue'));
  }
  return out;
}
/** Word i a name that is also a word ("bill", "will", "may"), capitalised where written, no function word after a clause's end. */
const wordNameJoined = (doc: Doc, i: number) => WORD_NAMES.has(doc.words[i]?.norm ?? '') && (speechLike(doc) || isCap(doc, i)) && !endsClause(doc, i - 1);
const ADDRESS_TAGS = ['st', 'stx', 'unit', 'dir', 'pl', 'state', 'ctry'];
const pushIf = (d: Detection | undefined, out: Detection[]) => d && out.push(d);

/**
 * The name said before "like" and its spelling ("and thats win like n g u y e n"): said the way it sounds, any word
 * that is no function word and no word said to agree ("thats right like ..."), after "it's" or "that's".
 */
function nameLikeSpelling(doc: Doc, p: Detection, otherKind: (i: number) => boolean): Detection | undefined {
  const s = p.wordStart!;
  if (p.wordEnd! - s < 3 || !/^(like|spelled|spelt)$/.test(normAt(doc, s - 1)) || !/^(its|it's|thats|that's|is)$/.test(normAt(doc, s - 3))) return undefined;
  // (a spelling: single letters)
  for (let k = s; k < p.wordEnd!; k++) if (!/^\p{L}$/u.test(normAt(doc, k))) return undefined;
  const x = normAt(doc, s - 2);
  if (!/^\p{L}{2,}$/u.test(x) || STOP.has(x) || NOT_ADDRESSED.has(x) || otherKind(s - 2) || endsClause(doc, s - 2) || endsClause(doc, s - 3)) return undefined;
  if (!speechLike(doc) && !isCap(doc, s - 2)) return undefined;
  return fromWords(doc, 'Person', s - 2, s - 1, 0.65, 'person-cue');
}

/**
 * The word written right before its own spelling ("It's Sky, S-K-Y.", "My name is Hey, H-E-Y."): the name spelled,
 * whatever else the word may be (a greeting, a mail service's name).
 */
function nameBeforeWrittenSpelling(doc: Doc, p: Detection, otherKind: (i: number) => boolean): Detection | undefined {
  const s = p.wordStart!;
  if (doc.spoken || s < 1 || p.wordEnd !== s + 1 || !/^\p{L}(?:[-.]\p{L}){2,}$/u.test(p.text)) return undefined;
  const spelt = p.text.replace(/[-.]/g, '').toLowerCase();
  const said = doc.words[s - 1].norm;
  // (a comma between them, no sentence's end: "Sky, S-K-Y")
  if (!/^\p{L}+$/u.test(said) || otherKind(s - 1) || /[.!?;:]["')\]]*$/.test(doc.words[s - 1].raw)) return undefined;
  return said[0] === spelt[0] && editDistance(said, spelt) <= Math.floor(spelt.length / 3) ? fromWords(doc, 'Person', s - 1, s, 0.7, 'spelled') : undefined;
}

/** Levenshtein distance (short words only: a name and its spelling). */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 4 || a.length > 40 || b.length > 40) return 99;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}
