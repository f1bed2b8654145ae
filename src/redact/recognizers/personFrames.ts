// Names in the frames of real requests and reports, which the cue rules of person.ts do not read (issue #32):
// the payee or the person shared with ("send the money to Pat", "share the account with Dale"), a provider
// ("book with Dr Reyes", "Marisol is my stylist", "my dentist is Lindqvist"), a title before a word that is also a
// word ("Mr. Will"), a lone family name reported ("Brennan says", "signed by Kowalczyk", "by Van der Berg"), someone
// added ("add Rose as an authorized user"), and a middle initial between names. Each frame is evidence enough for a
// word a name list holds (even one that is also a word: the frame says name) or one no list calls ordinary; written,
// the word must also be capitalised.
import { endsClause, fromWords, type Doc, type Recognizer } from './doc.js';
import { COMMON_WORDS, FIRST_NAMES, fold, LAST_NAMES, WORD_NAMES } from './nameData.js';
import { STREET_SUFFIX, STREET_TYPES_MORE } from './places.js';
import { STOP } from './stopwords.js';
import { TITLED_BRAND } from './person.js';
import { humanNames } from '../tagger/gazetteer.js';
import { ordinaryWord } from '../tagger/model.js';
import { wordClassNotName } from '../tagger/wordClass.js';
import type { Detection } from '../types.js';
import { capitalised, caseless } from './caseless.js';

/** Verbs of paying and moving whose "to" names a person: "send the money to Pat". */
const TO_VERB = /^(send|sending|sent|transfer|transferring|transferred|wire|wiring|wired|pay|paying|paid|give|giving|gave|mail|mailing|forward|forwarding|lend|lending|loan|refund|refunding|gift|owe|owes|reassign|assign|assigned)$/;
/** Verbs of sharing and booking whose "with" names a person: "share the account with Dale", "book with Dr Reyes" ("paid with Apple Pay" is not). */
const WITH_VERB = /^(share|sharing|shared|split|splitting|book|booked|booking|schedule|scheduled|appointment|cleaning|session|consultation|checkup|check-up|visit|see|seeing|meet|meeting|spoke|speak|talked|talk|dealt|working|work|worked)$/;
/** Who a provider or a relation is: "X is my stylist", "my dentist is X". */
const ROLE = new Set(`stylist hairdresser barber dentist doctor therapist physician nurse nanny lawyer attorney accountant
trainer tutor teacher babysitter contractor realtor vet pharmacist surgeon dermatologist chiropractor counselor
counsellor caseworker mechanic cleaner housekeeper landlord landlady tenant gardener caregiver pediatrician optometrist
psychiatrist psychologist plumber electrician broker advisor adviser consultant coach instructor manager supervisor
boss neighbor neighbour roommate wife husband partner son daughter mother mom mum father dad brother sister friend
cousin aunt uncle grandmother grandfather grandma grandpa fiance fiancee boyfriend girlfriend assistant agent
representative rep technician driver dogwalker walker sitter midwife doula specialist surgeon hygienist receptionist
tech cashier clerk teller inspector adjuster installer engineer courier repairman handyman operator banker
dispatcher officer paramedic`.split(/\s+/));
/** Relations named right after them: "our son Leo", "my wife Dana" ("my son will call" is masked too: the lesser harm). */
const RELATION = /^(wife|husband|partner|son|daughter|mother|mom|mum|father|dad|brother|sister|friend|cousin|aunt|uncle|grandmother|grandfather|grandma|grandpa|fiance|fiancee|boyfriend|girlfriend|niece|nephew|stepson|stepdaughter|stepmom|stepdad|grandson|granddaughter|(brother|sister|mother|father|son|daughter)-in-law)$/;
/** "The Delacroix family", "the Okafor household": a family named. */
const FAMILY = new Set(['family', 'household', 'residence', 'family\'s', 'household\'s']);
/** What makes "the X family" a thing, not a family: "the Verizon family plan". */
const FAMILY_THING = /^(plan|plans|account|accounts|pack|package|bundle|share|sharing|member|members|room|size|car|practice|business|tree|farm|doctor|dentist|pass|discount|rate|deal|tier|line|lines)$/;
/** A relation said with "in law", as ASR writes it: "my brother in law Hank". */
const IN_LAW = /^(brother|sister|mother|father|son|daughter)$/;
/** What is held in someone's name, "under" them: "the account is under Bill", "booked under Ruiz". */
const HELD = /^(account|accounts|reservation|reservations|booking|bookings|order|policy|appointment|plan|subscription|room|table|ticket|it|that|everything)$/;
const UNDER_VERB = /^(booked|reserved|listed|registered|filed|saved|held|booking|reserve|book|list|register)$/;
/** Titles before a name; "doctor" and "miss" are read with care (below). */
const TITLE = /^(mr|mrs|ms|mister|missus|mx|miss|dr|doctor|prof|professor)\.?$/;
/** Particles of a family name: "Van der Berg", "de la Cruz", "O'Neil" is one word. */
const PARTICLE = /^(van|von|der|den|de|del|della|la|le|du|da|di|dos|das|bin|al|el|st|ter|ten)$/;
/** Words that close a name reported: "X says", "X said". */
const REPORTS = /^(says|said|told|tells|mentioned|thinks|thought|wrote|confirmed|promised|explained|approved|signed|agreed|claims|claimed|insists|insisted)$/;
/** What opens the clause a reported name starts: nothing, or a discourse word ("well, Brennan says", "like X said"). */
const OPENER = /^(well|like|as|and|but|so|because|cause|that|um|uh|oh|yeah|then|now|also|actually|apparently|ok|okay|see)$/;
/** Days and months: "by Friday", "with June" after a date word are not names. */
const CALENDAR = /^(monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december|today|tomorrow|tonight|noon|midnight|christmas|easter)$/;
/** Not a person after "to"/"with"/"by": departments, channels, accounts and the like. */
const NOT_PERSON = /^(support|billing|sales|savings|checking|account|accounts|customer|service|services|someone|somebody|anyone|anybody|everyone|nobody|mail|email|phone|text|cash|card|check|credit|debit|paypal|zelle|venmo|bank|branch|office|store|team|department|desk|management|legal|collections|fraud|security|claims|shipping|returns|warehouse|home|work|school|hospital|clinic|court|police|family|friends|people|them|us|him|her|it|then|there|here)$/;

/** A number said ("refunds take twenty one to ten business days"): never a name. */
const NUMBER_WORD = /^(zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand)$/;
/** Contractions as ASR writes them ("not mister hes particular"): never a name. */
const CONTRACTION = /^(im|ive|youre|theyre|hes|shes|thats|theres|whats|lets|dont|cant|wont|didnt|doesnt|isnt|wasnt|its)$/;
const STREET_WORD: ReadonlySet<string> = new Set([...STREET_SUFFIX, ...STREET_TYPES_MORE]);
const norm = (doc: Doc, i: number) => doc.words[i]?.norm ?? '';
const letters = (w: string) => /^\p{L}[\p{L}'’-]*$/u.test(w);
const isCap = capitalised;
const listed = (w: string) => FIRST_NAMES.has(w) || WORD_NAMES.has(w) || LAST_NAMES.has(w) || FIRST_NAMES.has(fold(w)) || LAST_NAMES.has(fold(w));

/** The word alone may be a name in a frame: letters, no function word, no department, day, title, number or contraction. */
const frameWord = remembered((w: string) => !(!letters(w) || w.length < 2 || STOP.has(w) || NOT_PERSON.test(w) || CALENDAR.test(w) || TITLE.test(w) || NUMBER_WORD.test(w) || CONTRACTION.test(w)));
const listedWord = remembered(listed);

/** A test of a word alone, remembered per word (bounded): frames ask it of the same words in every doc. */
function remembered(test: (w: string) => boolean): (w: string) => boolean {
  const memo = new Map<string, boolean>();
  return (w) => {
    let hit = memo.get(w);
    if (hit === undefined) {
      hit = test(w);
      if (memo.size < 50_000) memo.set(w, hit);
    }
    return hit;
  };
}

/**
 * Word i as a name in a frame: letters, no function word, no department or day; a listed name (the frame vouches
 * for one that is also a word: "Pat", "Rose", "Georgia"), or a word no list calls ordinary ("Okonkwo"); written,
 * capitalised. `loose` also takes humannames' words (a lone family name reported: "Brennan").
 */
function frameName(doc: Doc, i: number, loose = false): boolean {
  const w = norm(doc, i);
  if (!frameWord(w)) return false;
  if (!caseless(doc) && !isCap(doc, i)) return false;
  if (listedWord(w) && !(loose && COMMON_WORDS.has(w) && !FIRST_NAMES.has(w))) return true;
  // (an adverb no list holds is none: "my wife normally handles it")
  if (!ordinaryWord(w) && !ordinaryWord(fold(w)) && w.length >= 3 && !(/ly$/.test(w) && wordClassNotName(w))) return true;
  return loose && !caseless(doc) && humanNames().has(w) && !COMMON_WORDS.has(w);
}

/** A surname or initial joining a name that ends before word k: "Sunny Delacroix", "Henrietta J. Oduya". */
function extend(doc: Doc, s: number, k: number): [number, number] {
  for (let n = 0; n < 3 && k < doc.words.length && !endsClauseBefore(doc, k); n++) {
    const w = norm(doc, k);
    const initial = /^\p{L}$/u.test(w) && (!caseless(doc) ? isCap(doc, k) : w !== 'a' && w !== 'i') && frameName(doc, k + 1);
    if (initial) k += 2;
    else if (PARTICLE.test(w) && frameName(doc, k + 1, true)) k += 2;
    else if (frameName(doc, k) && (LAST_NAMES.has(w) || !ordinaryWord(w)) && (caseless(doc) ? !COMMON_WORDS.has(w) : true)) k++;
    else break;
  }
  return [s, k];
}
const endsClauseBefore = (doc: Doc, k: number) => endsClause(doc, k - 1) && !/^\p{Lu}\.$/u.test(doc.words[k - 1]?.raw ?? '');

/** The name starting at word i, after a title or particles; undefined when none. */
function nameFrom(doc: Doc, i: number, loose = false): [number, number] | undefined {
  let s = i;
  if (TITLE.test(norm(doc, s)) && !endsClause(doc, s - 1)) s++;
  let k = s;
  // ("ten" said is a number: "twenty one to ten business days")
  while (PARTICLE.test(norm(doc, k)) && k - s < 2 && !(caseless(doc) && norm(doc, k) === 'ten')) k++;
  // after particles, any word of letters is the family name ("Van der Berg")
  const afterParticle = k > s && letters(norm(doc, k)) && !STOP.has(norm(doc, k)) && (caseless(doc) || isCap(doc, k));
  if (!afterParticle && !frameName(doc, k, loose)) return undefined;
  const r = extend(doc, s, k + 1);
  // a house number or a street word after it: a street ("send it to Bakkevej 210"), the address rules' to read
  return streetAfter(doc, r[1]) ? undefined : r;
}

const NUMBER = /^(\d+[a-z]?|zero|oh|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)$/;
/** Word k (after a name) starts a house number or is a street word: the "name" was a street. */
const streetAfter = (doc: Doc, k: number) => !endsClause(doc, k - 1) && (NUMBER.test(norm(doc, k)) || STREET_WORD.has(norm(doc, k)));

/** A title and the word after it, whatever the word ("Mr. Will", "mister will", "Mrs. Summer"). */
function titled(doc: Doc, i: number): [number, number] | undefined {
  const t = norm(doc, i);
  if (!/^(mr|mrs|ms|mister|missus|mx|miss)\.?$/.test(t)) return undefined;
  // "i miss you", "we'll miss it": a verb there
  if (t === 'miss' && /^(i|we|you|they|will|i'll|we'll|would|don't|dont|to|really|so|gonna|might|do|did|never|always)$/.test(norm(doc, i - 1))) return undefined;
  if (endsClause(doc, i) && !/\.$/.test(doc.words[i].raw)) return undefined;
  const w = norm(doc, i + 1);
  // "a Dr Pepper", "Mr. Clean": a product
  if (TITLED_BRAND.test(`${t.replace(/\.$/, '')} ${w}`)) return undefined;
  if (!letters(w) || w.length < 2 || /^(and|or|the|a|an|i|is|was|you|he|she|it|who|please|thank|thanks|yes|no|so)$/.test(w)) return undefined;
  // "not mister hes particular": a contraction as ASR writes it
  if (CONTRACTION.test(w)) return undefined;
  if (!caseless(doc) && !isCap(doc, i + 1)) return undefined;
  // the name alone, not the title: the value a record looks for elsewhere ("thackeray" without "mr")
  return extend(doc, i + 1, i + 2);
}

/** Words a frame starts at (a title, "to", "with", "add", "is", "by", "signed"...). */
const OPENS = new Set(['under', 'mr', 'mr.', 'mrs', 'mrs.', 'ms', 'ms.', 'mister', 'missus', 'mx', 'miss', 'to', 'with', 'from', 'add', 'adding', 'is', 'by', 'signed', 'regards', 'sincerely']);
/** What someone sends or makes, whose "from" names a person: "a missed call from Charlotte", "a text from Tyler". */
const FROM_NOUN = /^(call|calls|text|texts|message|messages|voicemail|voicemails|email|emails|e-mail|letter|letters|note|visit|callback)$/;
const REPORT_WORDS = new Set(REPORTS.source.replace(/^\^\(|\)\$$/g, '').split('|'));

/**
 * Word i right after "our son", "my wife" when no list vouches for it ("Leo" is also a sign of the zodiac): a
 * word of letters that is no function word and that compromise does not read as a verb, adjective or adverb ("my
 * son says", "my wife usually"); written, capitalised.
 */
function relationName(doc: Doc, i: number): [number, number] | undefined {
  const w = norm(doc, i);
  if (!letters(w) || w.length < 2 || STOP.has(w) || NOT_PERSON.test(w) || CALENDAR.test(w) || NUMBER_WORD.test(w) || CONTRACTION.test(w)) return undefined;
  if (!caseless(doc) && !isCap(doc, i)) return undefined;
  if (wordClassNotName(w) || /(ed|ing|s)$/.test(w)) return undefined;
  return [i, i + 1];
}

/** Modals a request to call back opens with: "Can Penny call me back?", "could marco ring me". */
const ASKING = /^(can|could|would|will|did|has|have|can't|cant|couldn't|couldnt)$/;
/** Ways to get back to a caller. */
const CONTACT = /^(call|ring|phone|text|email|e-mail|message|contact|reach|get)$/;
/**
 * The one asked to call back: a modal, a name, a way to get back and "me", "us" or "back" ("Can Penny call me
 * back?", "could dale text me"); "can you call me", "can someone call me" are none (function words, NOT_PERSON).
 */
function askedToCall(doc: Doc, i: number): [number, number] | undefined {
  if (!ASKING.test(norm(doc, i)) || endsClause(doc, i) || !CONTACT.test(norm(doc, i + 2)) || !/^(me|us|back)$/.test(norm(doc, i + 3))) return undefined;
  return frameName(doc, i + 1) && !endsClause(doc, i + 1) ? [i + 1, i + 2] : undefined;
}

/** Children and siblings named together: "my kids are Hope and Will". */
const KIDS = /^(kids|children|daughters|sons|boys|girls|twins|grandkids|grandchildren|grandsons|granddaughters|brothers|sisters|parents|stepkids)$/;
/** Verbs that follow "and will" or "and may" as a modal: "my kids are fine and will be there". */
const MODAL_NEXT = /^(be|have|get|go|come|call|need|do|make|take|pay|stay|start|keep|see|try|not|also|still|probably|just)$/;
/**
 * The names after "my kids are", "our daughters are": one, or two joined by "and" ("Hope and Will"); the second
 * may be a name that is also a function word ("will", "may"), though not before a verb it would be the modal of.
 */
function namedKids(doc: Doc, i: number): [number, number][] {
  if (!KIDS.test(norm(doc, i)) || !/^(my|our|his|her|their)$/.test(norm(doc, i - 1)) || norm(doc, i + 1) !== 'are' || endsClause(doc, i)) return [];
  const first = nameFrom(doc, i + 2);
  if (!first) return [];
  const out = [first];
  const k = first[1];
  // ("Hope and Will", "Hope, and Will")
  if (norm(doc, k) === 'and' && !endsClause(doc, k)) {
    const at = k + 1;
    const x = norm(doc, at);
    const second = nameFrom(doc, at) ?? (WORD_NAMES.has(x) && (caseless(doc) || isCap(doc, at)) && !MODAL_NEXT.test(norm(doc, at + 1)) ? ([at, at + 1] as [number, number]) : undefined);
    if (second) out.push(second);
  }
  return out;
}

/** What someone did to a thing, after their name: "Chase marked it delivered", "Dana closed the ticket". */
const DONE = /^(marked|left|dropped|delivered|cancelled|canceled|refunded|processed|closed|scanned|took|sent|shipped|entered|changed|updated|booked|flagged|opened|reset|moved|waived|credited|returned|picked)$/;
/**
 * A given name before what they did to a thing, at a clause's start or after "says" ("the driver, it says Chase
 * marked it delivered"): a listed given name only (a brand is none: "fedex marked it delivered").
 */
function doer(doc: Doc, i: number): [number, number] | undefined {
  const x = norm(doc, i);
  if (!DONE.test(norm(doc, i + 1)) || !/^(it|them|the|my|our|this|that|me|us|a|an|off|up)$/.test(norm(doc, i + 2)) || endsClause(doc, i)) return undefined;
  const opens = i === 0 || endsClause(doc, i - 1) || OPENER.test(norm(doc, i - 1)) || /^(says|said)$/.test(norm(doc, i - 1));
  if (!opens || !(FIRST_NAMES.has(x) || WORD_NAMES.has(x)) || !frameName(doc, i)) return undefined;
  return [i, i + 1];
}

/**
 * A given name that is also a month or a function word, capitalised where written ("June is my aunt", "Will is my
 * son"), at a clause's start: a relation after "is my" says it is the name.
 */
const wordNamed = (doc: Doc, i: number) => WORD_NAMES.has(norm(doc, i)) && (caseless(doc) || isCap(doc, i)) && !endsClause(doc, i) && (i === 0 || endsClause(doc, i - 1) || OPENER.test(norm(doc, i - 1)) || /^(yes|no)$/.test(norm(doc, i - 1)));

/**
 * A relation then a comma, written ("I'm her son, Dean."): the name after it stands when the clause ends with it
 * (a list or a clause goes on otherwise: "my son, who ...").
 */
function apposed(doc: Doc, i: number): boolean {
  if (caseless(doc) || !/,["')]*$/.test(doc.words[i]?.raw ?? '')) return false;
  const r = nameFrom(doc, i + 1);
  return r !== undefined && (r[1] >= doc.words.length || endsClause(doc, r[1] - 1));
}

/** Whether "under" at word i is held in someone's name: "(the account) is under", "put it under", "booked under". */
function underName(doc: Doc, i: number): boolean {
  const a = norm(doc, i - 1);
  if (UNDER_VERB.test(a)) return true;
  // "account's under", "it's under", "the booking is under"
  if (/^(\p{L}+)'s$/u.test(a) && HELD.test(a.slice(0, -2))) return true;
  if (/^(is|was|are|were)$/.test(a) && HELD.test(norm(doc, i - 2))) return true;
  if (/^(its|thats)$/.test(a)) return true;
  // "put it under Bill", "put the order under Teague"
  return HELD.test(a) && /^(put|book|list|register|file|keep|have|get)$/.test(norm(doc, i - 2) === 'the' ? norm(doc, i - 3) : norm(doc, i - 2));
}

/** What the one named beside a role did or was ("the technician hope was great", "the driver marco left it"). */
const ROLE_NEXT = /^(is|was|has|had|did|does|came|come|comes|showed|fixed|helped|said|says|told|left|took|called|went|installed|replaced|repaired|checked|looked|seemed|gave|explained|handled|knew|knows|could|couldnt|couldn't|didnt|didn't|wasnt|wasn't)$/;
/**
 * The name right after a role at word i ("The technician, Hope, was great", "the technician hope was great"):
 * written, one or two capitalised words set off by commas; said, one word a frame takes as a name, before what the
 * one named did. "the technician fixed it", "the driver side was dented" are none (no name there).
 */
function roleApposed(doc: Doc, i: number): [number, number] | undefined {
  const at = i + 1;
  if (!caseless(doc)) {
    if (!/,["')]*$/.test(doc.words[i].raw) || /[.!?;:]["')\]]*$/.test(doc.words[i].raw)) return undefined;
    const r = nameFrom(doc, at);
    if (!r || r[1] - r[0] > 3 || !/,["')]*$/.test(doc.words[r[1] - 1].raw)) return undefined;
    return r;
  }
  if (endsClause(doc, i) || !frameName(doc, at) || endsClause(doc, at) || !ROLE_NEXT.test(norm(doc, at + 1))) return undefined;
  return [at, at + 1];
}

/** What pushes a frame's name, words [r0, r1), to `out` (made once per doc: a function, not a closure named per call). */
function framePusher(doc: Doc, out: Detection[]): (r: [number, number] | undefined, c: number) => number | false | undefined {
  return (r, c) => r && r[1] > r[0] && out.push(fromWords(doc, 'Person', r[0], r[1], c, 'person-frame'));
}

export const personFrameRecognizer: Recognizer = (doc) => {
  if (doc.options.personSources?.cues === false) return [];
  const out: Detection[] = [];
  const push = framePusher(doc, out);
  const n = doc.words.length;
  for (let i = 0; i < n; i++) {
    const w = norm(doc, i);
    // most words open no frame: one set lookup each for this word and the next
    if (!OPENS.has(w) && !REPORT_WORDS.has(norm(doc, i + 1)) && !ROLE.has(w) && w !== 'the' && w !== 'law' && !ASKING.test(w) && !KIDS.test(w) && !DONE.test(norm(doc, i + 1))) continue;
    // "Can Penny call me back?", "my kids are Hope and Will", "it says Chase marked it delivered"
    push(askedToCall(doc, i), 0.7);
    for (const r of namedKids(doc, i)) push(r, 0.7);
    push(doer(doc, i), 0.7);
    // "the Delacroix family used to live here", "the Van der Berg household" (not "the Verizon family plan")
    if (w === 'the') {
      const r = nameFrom(doc, i + 1, true);
      if (r && FAMILY.has(norm(doc, r[1])) && !FAMILY_THING.test(norm(doc, r[1] + 1))) push(r, 0.7);
      continue;
    }
    // "my brother in law Hank Stroud" (said; written "brother-in-law" is a relation word of its own)
    if (w === 'law') {
      if (norm(doc, i - 1) === 'in' && IN_LAW.test(norm(doc, i - 2)) && /^(my|our|his|her|their)$/.test(norm(doc, i - 3)) && !endsClause(doc, i)) push(nameFrom(doc, i + 1) ?? relationName(doc, i + 1), 0.7);
      continue;
    }
    push(titled(doc, i), 0.8);
    // "send the money to Pat", "share the account with Dale", "book with Dr Reyes", "make the check out to X"
    if ((w === 'to' || w === 'with') && !endsClause(doc, i)) {
      let verb = false;
      const verbs = w === 'to' ? TO_VERB : WITH_VERB;
      for (let k = i - 1; k >= Math.max(0, i - 6) && !endsClause(doc, k); k--) if (verbs.test(norm(doc, k))) verb = true;
      // "make the check out to X", "payable to X"
      if (/^(out|payable)$/.test(norm(doc, i - 1))) verb = true;
      if (verb) push(nameFrom(doc, i + 1), 0.7);
    }
    // "a missed call from Charlotte", "I got a text from Tyler" (a town that is a given name here is a person)
    if (w === 'from' && !endsClause(doc, i) && (FROM_NOUN.test(norm(doc, i - 1)) || (FROM_NOUN.test(norm(doc, i - 2)) && !endsClause(doc, i - 2)))) push(nameFrom(doc, i + 1), 0.7);
    // "add Rose as an authorized user"
    if ((w === 'add' || w === 'adding') && norm(doc, i + 2) === 'as') push(nameFrom(doc, i + 1), 0.7);
    // "Marisol is my stylist", "Tamsin is our nanny"
    if (w === 'is' && /^(my|our|his|her|their|the)$/.test(norm(doc, i + 1)) && (ROLE.has(norm(doc, i + 2)) || ROLE.has(norm(doc, i + 3)))) {
      let s = i;
      while (s > 0 && i - s < 3 && !endsClause(doc, s - 1) && (frameName(doc, s - 1, true) || (s < i && PARTICLE.test(norm(doc, s - 1))) || (s < i && /^\p{L}\.?$/u.test(doc.words[s - 1].raw)))) s--;
      if (s < i && frameName(doc, s, true)) push([s, i], 0.7);
      else if (RELATION.test(norm(doc, i + 2)) && wordNamed(doc, i - 1)) push([i - 1, i], 0.7);
    }
    // "my dentist is Lindqvist", "my physical therapist is Dr. Amara Nwosu"
    const owned = /^(my|our|his|her|their)$/.test(norm(doc, i - 1)) || /^(my|our|his|her|their)$/.test(norm(doc, i - 2));
    if (ROLE.has(w) && owned && /^(is|was)$/.test(norm(doc, i + 1)) && !endsClause(doc, i)) push(nameFrom(doc, i + 2), 0.7);
    // "the hygienist was Rose", "the driver is Marco": the one who served, named
    else if (ROLE.has(w) && /^(the|your|that)$/.test(norm(doc, i - 1)) && /^(is|was)$/.test(norm(doc, i + 1)) && !endsClause(doc, i)) push(nameFrom(doc, i + 2), 0.7);
    // "The technician, Hope, was great", "the technician hope was great": the one who served, named beside their
    // role and before what they did (written, set off by commas; said, before a verb of report or of doing)
    if (ROLE.has(w) && /^(the|your|that|our|my|his|her|their)$/.test(norm(doc, i - 1))) push(roleApposed(doc, i), 0.7);
    // "I'm her son, Dean.": a relation and, after a comma, the name closed by the clause's end
    if (RELATION.test(w) && /^(my|our|his|her|their)$/.test(norm(doc, i - 1)) && apposed(doc, i)) push(nameFrom(doc, i + 1), 0.7);
    // "our son Leo", "my wife Dana Ortiz"
    if (RELATION.test(w) && /^(my|our|his|her|their)$/.test(norm(doc, i - 1)) && !endsClause(doc, i)) push(nameFrom(doc, i + 1) ?? relationName(doc, i + 1), 0.7);
    // "the account is under Bill", "put it under Bill", "booked under Ruiz"
    if (w === 'under' && !endsClause(doc, i) && underName(doc, i)) push(nameFrom(doc, i + 1), 0.7);
    // "Brennan says", "well, Brennan says", "like Petrossian said"
    if (REPORTS.test(norm(doc, i + 1)) && (i === 0 || endsClause(doc, i - 1) || OPENER.test(norm(doc, i - 1))) && !endsClause(doc, i)) {
      let s = i;
      while (s > 0 && i - s < 2 && PARTICLE.test(norm(doc, s - 1))) s--;
      if (frameName(doc, i, true)) push([s, i + 1], 0.7);
    }
    // "signed by Kowalczyk", "helped by Okonkwo", "filled in by Van der Berg", "Signed, Thackeray."
    if (w === 'by' && (/(ed|en|wn|ne)$/.test(norm(doc, i - 1)) || /(ed|en)$/.test(norm(doc, i - 2)))) push(nameFrom(doc, i + 1, true), 0.7);
    if (/^(signed|regards|sincerely)$/.test(w) && (endsClause(doc, i) || i === 0 || i + 2 >= n)) push(nameFrom(doc, i + 1, true), 0.7);
  }
  return out;
};
