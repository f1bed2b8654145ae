// A number that names an order, a ticket, a parcel or a case, not a person: "your ticket number is 4471-208", "the
// tracking number they gave me is 1Z 999 AA1 01 2345 6784". Digits after such a cue are no phone number, however
// many there are; a phone's own cue between them ("... you can reach me at") or a clause's end keeps them one.
// Nor, after the narrower NOT_PII cues (an order, a parcel, a serial: never a person's), a possible SSN or card: any
// personal number's cue between them ("order number, and my social is ...") keeps the digits personal.
import { cuesBefore, cuesIn, digitsOfWords, luhn, type Cue } from './digitRuns.js';
import type { Doc } from './doc.js';

/** Numbers that are not phones: "order number", "ticket number" (an account, card, SSN... number has its own cue). */
export const NOT_PHONE = /^(order|ticket|invoice|reference|ref|confirmation|tracking|case|claim|policy|member|membership|serial|model|part|item|room|flight|seat|gate|queue|caller|booking|reservation|receipt|transaction|customer|employee|badge|id|pin|po|sn|imei|vin|citation|violation|ndc|itinerary)$/;
/**
 * Numbers that name a thing, never a person: no SSN or card reading of their digits. Narrower than NOT_PHONE: an
 * "id number", a "member number", a "policy number" or a "pin" may well be an SSN said as one, and so may a
 * "claim" or "case" number (a Medicare claim number is an SSN and a letter).
 */
export const NOT_PII = /^(order|ticket|invoice|reference|ref|confirmation|tracking|serial|model|part|item|flight|booking|reservation|receipt|transaction|po|shipment|parcel|package|rma|sn|imei|citation|violation|ndc|itinerary)$/;
/** What may come between the cue's noun and the number: "ticket number is", "order no.", "tracking #". */
const NOUN = /^(number|numbers|number's|no|num|nr|id|code|#)$/;
/** A spoken digit: where the next number starts. */
const SPOKEN_DIGIT = /^(zero|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand)$/;
const SPOKEN = /^(zero|oh|o|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|double|triple|dash)$/;
/** An SSN as it is written: "078-05-1120". */
const SSN_SHAPE = /^\d{3}-\d{2}-\d{4}\b/;
/** A code's pieces looked back over, at most (a 1Z tracking code said digit by digit is under 30 words). */
const CODE_REACH = 40;
/** Words said between the cue and the number, at most: "they gave me is". */
const GAP = 5;

/** A number's abbreviated noun ("part no. 2217-0093", "Ref. 4471") ends no clause with its dot. */
const ABBREVIATION = /^(no|nr|num|ref|inv|ord)\.$/i;
const endsClause = (doc: Doc, i: number) => !doc.spoken && /[.!?;:,]["')\]]*$/.test(doc.words[i]?.raw ?? '') && !ABBREVIATION.test(doc.words[i]?.raw ?? '');

/** Written words with nothing between them: "AA1" is read as "AA" and "1". */
const glued = (doc: Doc, i: number) => !doc.spoken && i + 1 < doc.words.length && doc.words[i].end === doc.words[i + 1].start;

/**
 * A document that names the number right after it with no noun: "Invoice 310448725", "order 88213 ...". Only those
 * whose numbers are commonly read so: a "receipt" or a "transaction" before bare digits may be anything said after
 * it ("Receipt 078051120" keeps its SSN reading: never less).
 */
const DOCUMENT = /^(invoice|order|ticket|confirmation|booking|reservation|shipment|parcel|package|rma|po|citation)$/;
/** Words after a number looked at for a personal cue: "6175550143 is my cell", "..., sorry, that was my social". */
const AFTER_WINDOW = 6;
/** Cues that name a person's number (not a code's place, "on the back", or a date's). */
const PERSONAL: ReadonlySet<Cue> = new Set<Cue>(['ssn', 'card', 'phone', 'account', 'routing', 'license', 'passport', 'dob']);
/** Whose the number is, said after it: "is my cell", "call me there", "that's her phone", "that's mine". */
const OWNER = /^(my|me|mine|our|ours|us|his|her|hers|their|your|yours)$/;

/**
 * A person's number named within AFTER_WINDOW words after word `end` (exclusive), before the next number: an owner
 * ("my", "me", "mine") and, but for "mine", a personal number's cue ("Order 6175550143 is my cell", "ticket
 * 617-555-0143 that's my phone", "transaction 555 123 4567 call me there"). A cue with no owner ("they said to call
 * back") names no one's number.
 */
function personalAfter(doc: Doc, end: number): boolean {
  let to = end;
  while (to < Math.min(doc.words.length, end + AFTER_WINDOW) && !/\d/.test(doc.words[to].norm) && !SPOKEN_DIGIT.test(doc.words[to].norm)) to++;
  let owner = false;
  for (let k = end; k < to; k++) {
    if (doc.words[k].norm === 'mine') return true;
    owner ||= OWNER.test(doc.words[k].norm);
  }
  return owner && [...cuesBefore(doc, to, end, to - end)].some((c) => PERSONAL.has(c));
}

/** Names a thing's number by itself, no "number" after it: "the serial on the sticker", "SN 4471-...". */
const SELF_NAMING = /^(serial|tracking|sn|imei|vin|ndc)$/;
/**
 * Cues spelled out letter by letter ("the n d c on the box", "the i m e i is"), as one word. Only those no name's
 * letters end with by chance and no person's number is called: not "p o", "i d", "s n".
 */
const SPELLED_CUES = /^(ndc|imei)$/;
/**
 * How many digits the number of a cue has, where the cue is taken only so: an NDC is 10 digits (11 as billed); an
 * IMEI spelled out ("i m e i") 14-16 (an IMEI written so keeps the written cue's reach). Another length after them
 * keeps every reading (a 9-digit run after "the n d c is" may be an SSN).
 */
const CUE_DIGITS: Record<string, readonly [number, number]> = { ndc: [10, 11], 'i m e i': [14, 16] };
/** The longest spelling looked back over (i m e i). */
const SPELLED_MAX = 4;

/**
 * A cue spelled out in single letters ending at word k ("n d c", "i m e i"): the word they spell and the
 * index of its first letter; undefined when none.
 */
export function spelledCue(doc: Doc, k: number): { word: string; from: number } | undefined {
  let word = '';
  let found: { word: string; from: number } | undefined;
  for (let j = k; j >= 0 && k - j < SPELLED_MAX && /^[a-z]$/.test(doc.words[j].norm); j--) {
    word = doc.words[j].norm + word;
    if (word.length >= 2 && SPELLED_CUES.test(word)) found = { word, from: j };
  }
  return found;
}

/** "this call", "the call" ... as a noun ("the reference number for this call is ..."). */
const THIS_CALL = /\b(this|the|your|that|today's|todays) call\b/;
/** Said right after "call", what makes it a phone's ("the call from 415 ...", "your call to ..."): its cue stays. */
const CALL_PHONE = /^(from|to|into|with|at|on|placed|made|me|us|him|her|them|back|came|number|line|today|tonight|yesterday|earlier)$/;
/** A phone's digit count: 7, 10, 11. */
const phoneShaped = (n: number) => n === 7 || n === 10 || n === 11;

/** A card's leading digits for its length: a 13-digit Visa's 4, a Diners' 30/36/38, an Amex's 34/37, 2-6 for 16-19. */
const cardStart = (w: string) => (w.length === 13 ? w[0] === '4' : w.length === 14 ? /^3[068]/.test(w) : w.length === 15 ? /^3[47]/.test(w) : /^[2-6]/.test(w));

/**
 * A card inside the digits with stray digits before or after it ("4111 1111 1111 1111 1", "uh 1"): a 13-19 digit
 * window at either end that passes Luhn and starts as a card of its length does (the whole run too).
 */
export function luhnWindow(digits: string): boolean {
  for (let len = 13; len <= Math.min(19, digits.length); len++) {
    for (const w of [digits.slice(0, len), digits.slice(digits.length - len)]) if (cardStart(w) && luhn(w)) return true;
  }
  return false;
}

/**
 * The cues in words [from, to) before a number of `digits` digits, "this call" (a noun: "the reference number for
 * this call is ...") left out only where it is surely one: "call" said last, then "is" or a comma, then the number;
 * or, but for an SSN's or a card's reading (`pii`), a number of no phone's shape after "call" with nothing of a
 * phone's after it ("for the call from ...", "your call to ...", "the call 800 ..." keep the phone's cue).
 */
function cuesBetween(doc: Doc, from: number, to: number, run: string | undefined, pii: boolean): Set<Cue> {
  const cues = cuesBefore(doc, to, from, to - from);
  if (!cues.has('phone') || run === undefined) return cues;
  const digits = run.length;
  const norms = doc.words.slice(from, to).map((w) => w.norm);
  const text = norms.join(' ');
  const m = THIS_CALL.exec(text);
  if (m === null || THIS_CALL.test(text.slice(m.index + m[0].length))) return cues;
  const callAt = from + text.slice(0, m.index + m[0].length).split(' ').length - 1;
  const rest = norms.slice(callAt - from + 1);
  const said = (rest.length === 0 && /,$/.test(doc.words[callAt].raw)) || (rest.length === 1 && /^(is|was)$/.test(rest[0]));
  const noun = pii ? said && digits !== 9 && !luhnWindow(run) : said || (!phoneShaped(digits) && (rest.length === 0 || !CALL_PHONE.test(rest[0])));
  if (!noun) return cues;
  return cuesIn(text.slice(0, m.index) + ' ' + rest.join(' '));
}
/** A written code piece of letters and digits ("1Z", "77E"). */
const mixed = (doc: Doc, i: number) => !doc.spoken && /[a-z]/.test(doc.words[i].norm) && /\d/.test(doc.words[i].norm);

/** A piece of a reference code: digits, a single letter, letters and digits mixed ("1Z", "AA1"), a spoken digit. */
function codePiece(doc: Doc, i: number): boolean {
  const w = doc.words[i].norm;
  return /^[a-z0-9-]+$/.test(w) && (/\d/.test(w) || w.length === 1 || SPOKEN.test(w) || (w.length <= 3 && glued(doc, i)));
}

/**
 * Whether the number in words [start, end) follows a reference number's cue (NOT_PHONE), no phone cue between;
 * `pii`: a cue of NOT_PII, and no personal number's cue of any kind between. A person's number named right after it
 * (`end` given) makes it no reference whatever came before ("Order 6175550143 is my cell").
 */
export function afterReferenceCue(doc: Doc, start: number, pii = false, end?: number): boolean {
  if (end !== undefined && personalAfter(doc, end)) return false;
  // written as an SSN is written (3-2-4), it is read as one whatever was said before it
  if (pii && !doc.spoken && SSN_SHAPE.test(doc.words[start]?.raw ?? '')) return false;
  let k = start - 1;
  // the code's earlier pieces ("1Z 999 AA1" before "01 2345 6784"), within one clause; "starts with 1Z, then 4F8 ...":
  // a comma after a piece of letters and digits, or before "then", goes on with the code. At most CODE_REACH words
  // back: this runs for every long digit run, and an unbounded walk over a text of digits and letters is quadratic.
  const floor = Math.max(0, start - CODE_REACH);
  for (;;) {
    while (k >= floor && codePiece(doc, k) && !spelledCue(doc, k) && (!endsClause(doc, k) || (k + 1 < start && (mixed(doc, k) || doc.words[k + 1].norm === 'then')))) k--;
    if (k >= floor + 1 && doc.words[k].norm === 'then' && codePiece(doc, k - 1)) k--;
    else break;
  }
  // still inside a code at the reach: no cue read (the digits keep every reading)
  if (k < floor && floor > 0) return false;
  const run = end === undefined ? undefined : digitsOfWords(doc, start, end);
  const digits = run?.length;
  for (let gap = 0; k >= 0 && gap <= GAP && !endsClause(doc, k); gap++, k--) {
    const spelled = spelledCue(doc, k);
    const word = spelled?.word ?? doc.words[k].norm;
    // the noun said ("ticket number", "order #"): "the claim is under review, it's 020..." may well be a phone
    // "#" is a word of its own with nothing left once trimmed, or glued on ("order #882"); a serial, a tracking
    // code need none ("the serial on the sticker is SN 4471-...")
    // a document's name right before the number needs none either ("Invoice 310448725"); a bare "ref" or "pin" does
    // ("ref 7777 7777 7777 7777" may be a card given as one)
    const noun =
      SELF_NAMING.test(word) ||
      (k + 1 < start ? NOUN.test(doc.words[k + 1].norm) || doc.words[k + 1].raw.startsWith('#') : doc.text.slice(doc.words[k].end, doc.words[k + 1].start).includes('#') || DOCUMENT.test(word));
    if ((pii ? NOT_PII : NOT_PHONE).test(word) && noun) {
      const reach = (spelled ? CUE_DIGITS[spelled.word.split('').join(' ')] : undefined) ?? CUE_DIGITS[word];
      if (reach && (digits === undefined || digits < reach[0] || digits > reach[1])) return false;
      if (NARROW.test(word) && !narrowCue(doc, k + 1, start, end, word, run, pii)) return false;
      // "the reference number for this call is ...": "call" there is no phone's cue (cuesBetween says where)
      const between = cuesBetween(doc, k + 1, start, run, pii);
      return pii ? [...between].every((c) => c === 'ending') : !between.has('phone');
    }
    if (spelled) k = spelled.from;
  }
  return false;
}

/**
 * Cues that name their thing only for the number right after them (a drug's NDC, a trip's itinerary): nothing but
 * NARROW_GAP between ("the NDC on the box is", "itinerary number"), never "to", "and", "my number", "text".
 */
const NARROW = /^(ndc|itinerary)$/;
const NARROW_GAP = /^(number|no|num|nr|#|is|was|it's|its|code|on|the|box|bottle|label|package|pack)$/;
/** How an NDC is written: 4-4-2, 5-3-2, 5-4-1, 5-4-2 (11 as billed), or all in one. */
const NDC_GROUPS = /^(\d{10,11}|\d{4}-?\s?\d{4}-?\s?\d{2}|\d{5}-?\s?\d{3}-?\s?\d{2}|\d{5}-?\s?\d{4}-?\s?\d{1,2})$/;
/** A North American phone's digits: area code and exchange not starting 0 or 1, a leading 1 at most. */
const NANP = /^1?[2-9]\d\d[2-9]\d{6}$/;

/**
 * Whether a NARROW cue (ending at word `cueEnd - 1`) names the number in words [start, end): said right before it,
 * no phone's digits ("itinerary number 212 555 0188" keeps its phone reading: a North American phone's shape, or 7
 * digits), no SSN's length (9: "itinerary number 123 45 6789" keeps its SSN reading), no card inside (luhnWindow:
 * "5555 5555 5555 4444 1"), and an NDC written as one.
 */
function narrowCue(doc: Doc, cueEnd: number, start: number, end: number | undefined, word: string, run: string | undefined, pii: boolean): boolean {
  if (end === undefined || run === undefined) return false;
  for (let k = cueEnd; k < start; k++) if (!NARROW_GAP.test(doc.words[k].norm)) return false;
  if (!pii && (run.length === 7 || NANP.test(run))) return false;
  if (pii && (run.length === 9 || luhnWindow(run))) return false;
  if (word === 'ndc' && !doc.spoken && !NDC_GROUPS.test(doc.text.slice(doc.words[start].start, doc.words[end - 1].end).trim())) return false;
  return true;
}

/** What may come between a number's name and the number: "the IMEI is", "reference number is", "IMEI #". */
const NAMED_GAP = /^(is|was|it's|its|number|no|#)$/;

/**
 * A name matching `name` (or spelled so: "i m e i") within 3 words before word `start`, only NAMED_GAP between; with
 * `said`, at least one of them ("reference is", not a bare "reference 1234 ...": a card may be given as one), and
 * `before` the word before the name ("your dispute reference is", not "my reference is").
 */
function namedRightBefore(doc: Doc, start: number, name: RegExp, said = false, before?: RegExp): boolean {
  for (let k = start - 1, gap = 0; k >= 0 && gap < 3 && !endsClause(doc, k); k--, gap++) {
    const spelled = spelledCue(doc, k);
    if (name.test(spelled?.word ?? doc.words[k].norm)) {
      const from = spelled?.from ?? k;
      return (!said || gap > 0) && (before === undefined || before.test(doc.words[from - 1]?.norm ?? ''));
    }
    if (!NAMED_GAP.test(doc.words[k].norm)) return false;
  }
  return false;
}

/** What says whose a reference is, before the word: a thing's ("dispute", "booking") or the one who gave it ("your"). */
const REFERENCE_OF = /^(your|the|this|that|dispute|case|claim|booking|confirmation|transaction|payment|order|ticket|call|complaint|refund|return|chargeback|travel)$/;

const cardSaidIn = new WeakMap<Doc, boolean>();
/** Anything of a card said in the turn: a card's name, its code, its expiry (read once per document). */
function cardSaid(doc: Doc): boolean {
  let said = cardSaidIn.get(doc);
  if (said === undefined) {
    const cues = cuesIn(doc.words.map((w) => w.norm).join(' '));
    said = cues.has('card') || cues.has('cvv') || cues.has('exp');
    cardSaidIn.set(doc, said);
  }
  return said;
}

/** A card's grouping, written: all in one, 4-4-4-4, 4-6-5, 4-4-4-3. */
const CARD_GROUPS = /^(\d{15,16}|\d{4}[ -]\d{4}[ -]\d{4}[ -]\d{3,4}|\d{4}[ -]\d{6}[ -]\d{5})$/;
/** A number's words, said: digits and their names, nothing else (no "uh", no "dash" splitting it). */
const NUMBER_WORD = /^(\d+|zero|oh|o|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|double|triple)$/;

/** The run's text is one number grouped as a card is (written), or said with nothing but its digits (spoken). */
function oneCardLike(doc: Doc, written: string, digits: string): boolean {
  const t = written.trim();
  const grouped = !doc.spoken && /\D/.test(t);
  // said, or written all in one: no groups show a card's; 16 digits only ("one four one five five five ... zero zero
  // zero zero", 15, may be a phone and more)
  if (!grouped && digits.length !== 16) return false;
  return doc.spoken ? t.split(/\s+/).every((w) => NUMBER_WORD.test(w.toLowerCase())) : CARD_GROUPS.test(t);
}

/**
 * A card-length run (15 or 16 digits, one number grouped as a card's is, no filler or other group splitting it)
 * that fails Luhn in every 13-19 digit window, named a reference right before it ("your dispute reference is 4471 0093 ...":
 * whose it is said before "reference", a word after it; not "reference 1234 ..." nor "my reference is ..."), no card
 * said anywhere in the turn: a reference, no card (a Luhn-valid one stays a card, and so does any run said
 * where a card is talked of).
 */
export function cardLengthReference(doc: Doc, start: number, digits: string, written?: string): boolean {
  return (digits.length === 15 || digits.length === 16) && written !== undefined && oneCardLike(doc, written, digits) && !luhnWindow(digits) && namedRightBefore(doc, start, /^reference$/, true, REFERENCE_OF) && !cardSaid(doc);
}

/**
 * A phone's IMEI, named so right before it ("the IMEI is 3520...", "the i m e i is ..."): 15 digits that pass Luhn
 * as every IMEI does, not an Amex's 34/37, no card said anywhere in the turn. No card and no SSN.
 */
export function imeiNumber(doc: Doc, start: number, digits: string): boolean {
  return digits.length === 15 && luhn(digits) && !/^3[47]/.test(digits) && namedRightBefore(doc, start, /^imei$/) && !cardSaid(doc);
}
