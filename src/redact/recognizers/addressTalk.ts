// Talk the tagger took for an address (issue #32, wrong Address masks), told by evidence against one: what a
// number measures or counts ("1,850 square feet", "7 nights", "180 tablets"), the label before it ("model",
// "cabin 9214", "port 443", "Delta 1147"), a code's letters and digits ("model WFE505W0HS", "confirmation ending
// 7731"), an hour ("4 p.m.", "at seven oh five connecting"). Every look is a fixed window of words around the run.
import { gazetteerTags } from '../tagger/gazetteer.js';
import { ordinaryWord } from '../tagger/model.js';
import { wordClassNotName } from '../tagger/wordClass.js';
import { residenceAfter, residenceBefore, roadSpot, storageUnitAt } from './addressContext.js';
import type { Doc } from './doc.js';
import { englishWord } from './englishWords.js';
import { fold } from './nameData.js';
import { PROVINCE_ABBR, STATE_ABBR } from './places.js';
import { postcodeAt } from './zipCode.js';
import { normReader } from './normReader.js';

/** A number word or digits ("62704", "six"). */
export const numeric = (w: string | undefined) => w !== undefined && (/\d/.test(w) || SPOKEN_NUMBER.test(w));

/** A word of an address run that is more than a number, a month or a function word ("3rd" of a date is none). */
export const wordy = (w: string) => /\p{L}/u.test(w) && !/^\d+(st|nd|rd|th)$/.test(w) && !gazetteerTags(w).some((g) => g === 'num' || g === 'mon' || g === 'sw');

/** A number and what it counts or measures: "one thousand four hundred fifty dollars", "eighty three degrees". */
export function amount(doc: Doc, s: number, e: number): boolean {
  for (let i = s; i < e; i++) {
    const w = doc.words[i].norm;
    const prev = doc.words[i - 1]?.norm ?? '';
    if (NOT_HOUSE.has(w) && (/\d/.test(prev) || SPOKEN_NUMBER.test(prev))) return true;
    if (/^[$€£]/.test(doc.words[i].raw)) return true;
  }
  return false;
}

/** A number said as a word ("seventeen", "seventeena" for 17A). */
export const SPOKEN_NUMBER = /^(zero|oh|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand)[a-z]?$/;
/** What follows a number that is a count, an amount or a time, not a house number ("Aziz 50 dollars", "error 7 times"). */
export const NOT_HOUSE = new Set(`dollars dollar cents bucks euros pounds percent times time minutes minute hours hour days day weeks week months month
years year am pm o'clock oclock digits people items calls texts gb mb points degrees degree fahrenheit celsius inches inch
feet foot miles mile liters litres gallons kilos kg grams ounces lbs boxes bottles pairs stars bedrooms floors seats each a.m p.m`.split(/\s+/));

/** What a number measures when said right after it ("thousand square feet", "twelve foot", "fifty megabits"). */
const MEASURE = new Set(`square sq cubic feet foot ft inches inch meters metres meter metre km kilometers kilometres cm mm yards
yard acres acre hectares miles mile pounds lbs lb kilos kg grams tons ounces oz gallons liters litres ml watts watt kw kwh
volts amps mbps gbps kbps megs gigs megabits gigabits megabytes gigabytes terabytes mb gb tb ghz mhz hz percent degrees
fahrenheit celsius`.split(/\s+/));
/** Time zones said after an hour ("nine eastern", "ten thirty pacific time"). */
const ZONES = new Set('eastern central pacific mountain atlantic alaska hawaii est edt cst cdt mst mdt pst pdt gmt utc bst cet aest'.split(' '));
/** Words that say the number after them is a version, a code or a count, not a house number ("error nineteen"). */
const NUMBER_LABELS = new Set(`version ver model release build firmware update error code channel ext extension option step
level page chapter season episode series gen generation rev revision tier grade size item question part figure row seat
gate flight platform port dial dialed dialled press pressed pressing hit enter entered select push`.split(/\s+/));
/** Words before letters and digits that make them a code ("invoice i n v two oh nine"). */
const CODE_LABELS = new Set('invoice order ticket reference ref confirmation tracking case serial model part sku id code number account reservation reservations booking bookings membership member claim policy voucher promo coupon'.split(' '));
/** What a network generation said after its number names ("three g speeds", "five g coverage"): no flat "3G". */
const NETWORK = new Set('speed speeds network networks data coverage signal service phone phones connection internet plan band'.split(' '));
/** Words that place what follows: an address is likely after them ("i'm at", "send it to", "address is"). */
const PLACED = new Set(['at', 'to', 'address', 'live', 'lives', 'living', 'on']);
/** Lists that tell a street, a unit or a place (a word of them keeps a run). */
const STREETISH = ['st', 'stx', 'fst', 'unit', 'dir'];
const PLACEISH = ['pl', 'state', 'ctry'];

/**
 * Talk that the tagger took for an address, told by evidence against one: a number and what it measures ("one
 * thousand square feet"), an hour and its time zone ("nine eastern"), a version ("three point two point one"), a
 * labelled number ("error nineteen", "channel nine"), letters and digits of a code ("i n v two oh nine"), or words
 * every one of which is ordinary English with no street, unit or direction word among them and no number beside a
 * place ("sunny seventy five", "long story", "Miami data", "brother-in-law"); a numbered road where something
 * happened (roadSpot), a code after its label (labelledCode), every number accounted for as something else
 * (numbersAccounted: "7 nights, deck 9, cabin 9214").
 */
export function talkNotAddress(doc: Doc, s: number, e: number): boolean {
  const w = normReader(doc);
  const num = (i: number) => i >= 0 && i < doc.words.length && numeric(w(i));
  const tags = (i: number) => gazetteerTags(w(i));
  // ("point" between numbers is a decimal point, no street type: "three point two")
  const decimal = (i: number) => w(i) === 'point' && num(i - 1) && num(i + 1);
  let streetWords = 0;
  // (a storage unit's "unit" is no flat's: "the storage unit is 3056, unit number C-118")
  // (nor is a street type said right after a subject a street's: "i drove", "we walk")
  const verb = (i: number) => tags(i).includes('stx') && /^(i|we|you|he|she|they)$/.test(w(i - 1));
  // (nor a label's word before its number, lower case: "seat 14C, row 14", "gate 12")
  const label = (i: number) => (NUMBER_LABELS.has(w(i)) || MORE_LABELS.has(w(i))) && num(i + 1) && (doc.spoken || /^\p{Ll}/u.test(doc.words[i].raw));
  for (let i = s; i < e; i++) if (tags(i).some((g) => STREETISH.includes(g)) && !decimal(i) && !storageUnitAt(doc, i) && !verb(i) && !label(i)) streetWords++;
  // a numbered road where something happened: "a line down on Route 9 near mile marker 44"
  if (roadOnly(doc, s, e) && roadSpot(doc, s, e)) return true;
  // (a code's letters are no directions: "model l r f v s ...", "error e one ninety five")
  // (not where someone lives or something is sent, said before or after: "deliver it to cabin twelve at eighty
  // lakeshore drive", "cabin 12, 80 Lakeshore is where I live")
  if (!residenceBefore(doc, s, 6) && !residenceAfter(doc, e, 6) && (labelledCode(doc, s, e) || (streetWords === 0 && numbersAccounted(doc, s, e)))) return true;
  for (let i = Math.max(0, s - 1); i < e; i++) {
    if (!num(i)) continue;
    const next = w(i + 1);
    if (MEASURE.has(next) || ((next === 'square' || next === 'cubic' || next === 'sq') && MEASURE.has(w(i + 2)))) return true;
    if (next === 'g' && NETWORK.has(w(i + 2))) return true;
    if (ZONES.has(next) && i + 1 < e && !tags(i + 2).some((g) => g === 'st' || g === 'stx')) return true;
    // "three point two": a decimal; "point" is no street type between numbers
    if (decimal(i + 1) && streetWords === 0) return true;
  }
  // "error nineteen", "version 3": the label before the run's first number, the run's first word or the one before it
  let f = s - 1;
  while (f < e && !num(f)) f++;
  if (f < e && f <= s + 1 && NUMBER_LABELS.has(w(f - 1)) && streetWords === 0) return true;
  const norms = doc.words.slice(s, e).map((x) => x.norm);
  const letter = (x: string) => /^\p{L}$/u.test(x);
  // letters and digits only, after a letter or a code's label: a code
  if (norms.some(letter) && norms.every((x) => letter(x) || numeric(x)) && (letter(w(s - 1)) || CODE_LABELS.has(w(s - 1)))) return true;
  // the same with the label inside the run ("reservations k seven three three nine")
  let l = 0;
  while (l < norms.length && CODE_LABELS.has(norms[l])) l++;
  const code = norms.slice(l);
  if (l > 0 && code.some(letter) && code.some(numeric) && code.every((x) => letter(x) || numeric(x)) && streetWords === 0) return true;
  if (streetWords > 0) return false;
  const place = (x: string) => gazetteerTags(x).some((g) => PLACEISH.includes(g)) || gazetteerTags(fold(x)).some((g) => PLACEISH.includes(g));
  const hasNumber = norms.some(numeric) || num(s - 1) || num(e);
  const words = norms.flatMap((x) => x.split(/[-']/)).filter((x) => /\p{L}/u.test(x) && !numeric(x));
  if (words.length === 0) return false;
  const english = (x: string) => ordinaryWord(x) || englishWord(x);
  // with a number: only when every word is an English adjective, adverb or verb ("sunny seventy five"); a street's
  // name of another language can read as one to compromise ("grindsted")
  // Not where the run is where someone is or sends something: "i'm at two ten main", "send it to nine twenty high"
  if (hasNumber) return !PLACED.has(w(s - 1)) && !PLACED.has(w(s - 2)) && words.every((x) => english(x) && wordClassNotName(x) && !place(x));
  // ("The Sidings", "the Limes": a house's name)
  return norms[0] !== 'the' && words.every((x) => letter(x) || english(x) || place(x));
}

/** Words of a numbered road's name: "Route 9", "highway nine", "I-95", "US 1". */
const ROAD_WORDS = /^(route|rte|highway|hwy|interstate|i|us|sr|state|county|road|rd)$/;
/** Words [s, e) are a numbered road only: road words, then its number. */
function roadOnly(doc: Doc, s: number, e: number): boolean {
  let k = s;
  while (k < e && k - s < 3 && ROAD_WORDS.test(doc.words[k].norm)) k++;
  if (k === s || k === e) return false;
  for (let i = k; i < e; i++) if (!numeric(doc.words[i].norm)) return false;
  return true;
}

/** Words after a number that count it (besides NOT_HOUSE's and MEASURE's): "7 nights", "6 sessions", "180 tablets", "a 3-bedroom". */
const COUNTED = new Set(`night nights session sessions visit visits appointment appointments treatment treatments tablet tablets
pill pills capsule capsules dose doses refill refills milligram milligrams mg mcg microgram micrograms milliliter milliliters
millilitre millilitres bedroom bath baths bathroom bathrooms bed beds stories storeys rooms tickets passengers adults kids
children guests payments installments instalments stores locations`.split(/\s+/));
/** Measures that also name a place or a road: "Green Acres", "Eight Mile Road", "the Yards". */
const PLACE_MEASURE = /^(acres?|yards?|mile|feet|foot)$/;
/** Words between a number and what it counts: "3 different stores", "two more nights". */
const COUNT_ADJ = /^(different|separate|more|other|extra|additional|whole|full|consecutive|straight|total)$/;
/** Labels of a number after them (besides NUMBER_LABELS and CODE_LABELS): "deck 9, cabin 9214", "space 4127", "Rx 6604412". */
const MORE_LABELS = new Set(`deck cabin stateroom berth space spot stall locker pump table terminal carousel counter window register
aisle shelf bin slot bus train car coach marker milepost exit rx prescription cancellation authorization auth approval transaction receipt pin
ending`.split(/\s+/));
/** An age said after who has it: "he's 83", "hes eighty three", "she is 9", "turned 40". */
const AGE_CUES = /^(hes|shes|he's|she's|im|i'm|aged|age|turned|turning|turns)$/;
/** Words before "number" that make it a house's or a flat's: "the house number is 42" is an address's. */
const ADDRESS_NUMBER_OWNER = /^(house|flat|apartment|apt|unit|street|building|bldg|door|suite|room|lot|plot|address|box)$/;
/** Words between a label and its number: "the store number is 2290", "confirmation ending 7731". */
const LABEL_LINK = /^(is|was|number|no|#|ending|of|'s|the)$/;
/** Airlines whose name is said before a flight's number ("Delta 1147"), read so only near talk of flying. */
const AIRLINES = new Set(`delta united american southwest jetblue alaska spirit frontier hawaiian allegiant westjet aeromexico avianca
lufthansa klm emirates qantas ryanair easyjet iberia qatar etihad virgin lingus airways airlines porter`.split(/\s+/));
const FLYING = /^(flight|flights|flying|fly|flew|plane|airport|airline|connecting|connection|layover|boarding|board|gate|seat|seats|depart|departs|departing|departure|arrive|arrives|arriving|arrival|lands|landing|terminal|takeoff|nonstop)$/;
/** The word before a time: "at seven oh five", "by four thirty". */
const TIME_PREP = /^(at|by|around|until|till|til|before|after|from|about)$/;
const HOUR = /^(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)$/;
const MINUTE = /^(ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty)$/;
const DIGIT_WORD = /^(one|two|three|four|five|six|seven|eight|nine)$/;

/** The norm of word i ('' outside the doc). */
const at = (doc: Doc, i: number) => doc.words[i]?.norm ?? '';

/**
 * Word i is part of a written code glued together with no space, letters and digits mixed ("WFE505W0HS",
 * "SM-A546U", "26-AU-0048813"): read as one token of at least five letters and digits, with two letters together
 * or a letter first. A house number ("17A", "625/2") and a postcode ("SW1A 1AA", "K1A 0B1") are none.
 */
function codeWord(doc: Doc, i: number): boolean {
  if (doc.spoken || !doc.words[i]) return false;
  const glued = (k: number) => k >= 0 && k + 1 < doc.words.length && doc.words[k + 1].start - doc.words[k].end <= 1 && !/\s/.test(doc.text.slice(doc.words[k].end, doc.words[k + 1].start));
  let a = i;
  while (a > Math.max(0, i - 8) && glued(a - 1)) a--;
  let b = i + 1;
  while (b < Math.min(doc.words.length, i + 8) && glued(b - 1)) b++;
  if (b - a < 2) return false;
  const text = doc.words.slice(a, b).map((w) => w.norm).join('');
  if (text.length < 5 || !/\d/.test(text) || !/\p{L}/u.test(text) || !(/\p{L}{2}/u.test(text) || /^\p{L}/u.test(text))) return false;
  return postcodeAt(doc, a) === undefined;
}

/** A label of the number after it at word k ("model", "cabin", "port", "storage unit", "r x"); "house number" is none. */
function labelAt(doc: Doc, k: number): boolean {
  const w = at(doc, k);
  // a label spelled ("r x six six oh four"): its letters read together
  if (doc.spoken && /^\p{L}$/u.test(w) && /^\p{L}$/u.test(at(doc, k - 1))) {
    const spelled = at(doc, k - 1) + w;
    if (MORE_LABELS.has(spelled) || CODE_LABELS.has(spelled) || (/^\p{L}$/u.test(at(doc, k - 2)) && CODE_LABELS.has(at(doc, k - 2) + spelled))) return true;
  }
  if ((w === 'number' || w === 'no') && ADDRESS_NUMBER_OWNER.test(at(doc, k - 1))) return false;
  return NUMBER_LABELS.has(w) || CODE_LABELS.has(w) || MORE_LABELS.has(w) || storageUnitAt(doc, k) || capsAcronym(doc, k) || airline(doc, k);
}

/** States, provinces and box or road abbreviations, which come before a number in an address ("IL 62704", "PSC 1234", "US 1"). */
const ADDRESS_ABBR = /^(po|pob|pmb|gpo|bfpo|psc|cmr|rr|hc|apo|fpo|dpo|us|sr|cr|fm|hwy|rte|ste|apt|bldg|fl|rm|unit|box|lot|ph)$/i;
/**
 * Word k is an abbreviation written in capitals in text that is not all capitals ("MERV 11", "KLM 602"): a rating, a
 * product or a carrier, not a street's name; a state's, a province's or an address part's abbreviation is none.
 */
function capsAcronym(doc: Doc, k: number): boolean {
  const w = doc.words[k];
  if (doc.spoken || !w) return false;
  const letters = w.raw.replace(/[^\p{L}]/gu, '');
  if (!/^\p{Lu}{2,5}$/u.test(letters) || letters.length !== w.norm.length || !hasLowerCase(doc)) return false;
  if (STATE_ABBR.has(letters) || PROVINCE_ABBR.has(letters) || ADDRESS_ABBR.test(letters)) return false;
  return !gazetteerTags(w.norm).some((g) => ADDRESS_OWN.includes(g));
}
const ADDRESS_OWN = ['st', 'stx', 'fst', 'unit', 'dir', 'state', 'ctry', 'pl'];
/** Whether the text has a lower-case letter anywhere (read once a doc: the text is not scanned per word). */
const lowerCase = new WeakMap<Doc, boolean>();
function hasLowerCase(doc: Doc): boolean {
  let has = lowerCase.get(doc);
  if (has === undefined) lowerCase.set(doc, (has = /\p{Ll}/u.test(doc.text)));
  return has;
}

/** Word k names an airline, with talk of flying within ten words of it: "We're on Delta 1147 ..., connecting to ...". */
function airline(doc: Doc, k: number): boolean {
  if (!AIRLINES.has(at(doc, k))) return false;
  for (let i = Math.max(0, k - 10); i < Math.min(doc.words.length, k + 12); i++) if (FLYING.test(doc.words[i].norm)) return true;
  return false;
}

/** Words [a, b) say a time of day: "seven oh five", "four thirty", "eleven fifteen". */
function clockTime(doc: Doc, a: number, b: number): boolean {
  if (!doc.spoken || b - a < 2 || b - a > 3 || !HOUR.test(at(doc, a))) return false;
  if (at(doc, a + 1) === 'oh') return b - a === 3 && DIGIT_WORD.test(at(doc, a + 2));
  return MINUTE.test(at(doc, a + 1)) && (b - a === 2 || (/^(twenty|thirty|forty|fifty)$/.test(at(doc, a + 1)) && DIGIT_WORD.test(at(doc, a + 2))));
}

/** A verb's -ing form on no name or place list: "connecting", "boarding" ("reading", "spring" are on them). */
function gerund(w: string): boolean {
  return /^[a-z]{3,}ing$/.test(w) && englishWord(w) && gazetteerTags(w).length === 0;
}

/**
 * The number said in words [a, b) is accounted for as something other than a house number: a percentage, an
 * amount, a clock time ("2:14"); what it counts or measures after it ("7 nights", "500 milligrams", "25 years",
 * "3 different stores", "11,460 business miles"); its label before it ("deck 9", "port 443", "the store number is
 * 2290", "hes eighty three", "Delta 1147", "MERV 11"); an hour said before a verb ("at seven oh five connecting");
 * a written code it is part of.
 */
function accountedFor(doc: Doc, a: number, b: number): boolean {
  for (let i = a; i < b; i++) if (/%|^[$€£]|\d:\d/.test(doc.words[i].raw) || codeWord(doc, i)) return true;
  const counts = (w: string) => MEASURE.has(w) || NOT_HOUSE.has(w) || COUNTED.has(w);
  const next = at(doc, b);
  if (counts(next) || COUNT_ADJ.test(next)) return true;
  // one word between: "business miles", "extra nights" (an English word in lower case, no street's or place's; and
  // no measure that names places: "12 Green Acres", "eight mile")
  const between = doc.words[b];
  if (counts(at(doc, b + 1)) && !PLACE_MEASURE.test(at(doc, b + 1)) && /^\p{Ll}+$/u.test(between?.raw ?? '') && (englishWord(next) || ordinaryWord(next)) && !streetOrPlace(next)) return true;
  if (labelAt(doc, a - 1) || (LABEL_LINK.test(at(doc, a - 1)) && labelAt(doc, a - 2))) return true;
  if (AGE_CUES.test(at(doc, a - 1)) || (at(doc, a - 1) === 'is' && /^(he|she)$/.test(at(doc, a - 2)))) return true;
  return TIME_PREP.test(at(doc, a - 1)) && clockTime(doc, a, b) && gerund(next);
}

const placeWord = (w: string) => gazetteerTags(w).some((g) => PLACEISH.includes(g)) || gazetteerTags(fold(w)).some((g) => PLACEISH.includes(g));
const streetOrPlace = (w: string) => gazetteerTags(w).some((g) => ADDRESS_OWN.includes(g)) || gazetteerTags(fold(w)).some((g) => ADDRESS_OWN.includes(g));

/**
 * Words [s, e) (no street, unit or direction word among them: the caller's to see) with every number in them, or right before them,
 * accounted for as something else (accountedFor) and no place named: "nights, deck 9, cabin 9214", "Rx 6604412,
 * metformin 500 milligrams, 180 tablets", "It's our anniversary, 25 years", "Dillard's, 3 different stores". A
 * house number left unexplained keeps the run.
 */
function numbersAccounted(doc: Doc, s: number, e: number): boolean {
  const num = (i: number) => i >= 0 && i < doc.words.length && numeric(at(doc, i));
  let i = s;
  // a number right before the run goes with it ("7 | nights"), looked back at most eight words
  while (i > Math.max(0, s - 8) && num(i - 1)) i--;
  let groups = 0;
  while (i < e) {
    if (!num(i)) {
      if (placeWord(at(doc, i))) return false;
      i++;
      continue;
    }
    let b = i + 1;
    while (b < Math.min(doc.words.length, i + 12) && num(b)) b++;
    if (!accountedFor(doc, i, b)) return false;
    groups++;
    i = b;
  }
  return groups > 0;
}

/** Words that may stand in a code said or written after its label: letters, digits, "double", "dash". */
function codeish(doc: Doc, i: number): boolean {
  const w = at(doc, i);
  return numeric(w) || /^\p{L}$/u.test(w) || codeWord(doc, i) || /^(double|triple|dash|hyphen|ending|number|no|#)$/.test(w);
}

/**
 * A code after its label, where a run holds nothing else an address would: the label before the run ("model
 * WFE505W0HS", "Claim number 26-AU-0048813") or inside it with only numbers, or only English words that name the
 * code, before it ("46, model LRFVS3006S", "two thousand four hundred eighteen fifty confirmation ending seven seven
 * three one", "cancellation number c n eight eight three oh one", "error e one ninety five").
 */
function labelledCode(doc: Doc, s: number, e: number): boolean {
  // where the run's code begins: every word from there to the run's end may stand in a code (one pass back)
  let from = e;
  let content = false;
  while (from > s && codeish(doc, from - 1)) {
    from--;
    content ||= numeric(at(doc, from)) || codeWord(doc, from);
  }
  if (!content) return false;
  // the label before the run ("model WFE505W0HS"; "Claim number 26-AU-..." with the code's first part between)
  if (from === s) {
    let k = s - 1;
    while (k > Math.max(0, s - 5) && !labelAt(doc, k) && (codeish(doc, k) || LABEL_LINK.test(at(doc, k)))) k--;
    if (k >= 0 && labelAt(doc, k)) return true;
  }
  // the label inside the run, right before its code or inside it ("confirmation ending 7731", "cancellation number c n ...")
  let l = Math.max(s, from - 1);
  while (l < e && !labelAt(doc, l)) l++;
  if (l >= e || !doc.words.slice(l + 1, e).some((_, i) => numeric(at(doc, l + 1 + i)) || codeWord(doc, l + 1 + i))) return false;
  const before = doc.words.slice(s, l).map((w) => w.norm);
  if (before.some(streetOrPlace)) return false;
  const english = (w: string) => /^\p{L}+$/u.test(w) && (englishWord(w) || ordinaryWord(w));
  return !before.some(wordy) || (!before.some(numeric) && before.every(english));
}

/**
 * The number at word j is a seat's, a gate's, a version's... by the label right before it ("seat 14C, row 14",
 * "gate twelve"), not a house number ("level" is left out: "Level 3, 100 George Street" is an office's address).
 */
export function labelledNumber(doc: Doc, j: number): boolean {
  const w = at(doc, j - 1);
  return w !== 'level' && NUMBER_LABELS.has(w);
}

/** Words that name the postcode after them: "postcode 3056", "zip code", "postal code". */
const POSTCODE_LABEL = /^(postcode|postcodes|postal|zip|zipcode|code|post)$/;
/** Words before a town named in passing: "we're in Brunswick", "from Fitzroy". */
const IN_TOWN = /^(in|from|near|around|outside)$/;

/**
 * A town and its postcode with no street, after "in" ("we're in Brunswick, postcode 3056, Victoria"): the postcode
 * is masked by a rule as a ZipCode (`zipAt`: a word a rule's ZipCode covers); the town and state around it are no
 * address of their own, as a place named alone is not. At most three words either side of the postcode. After a
 * residence cue ("we live in Fitzroy, postcode 3065") the town is where someone lives: kept.
 */
export function townAroundPostcode(doc: Doc, s: number, e: number, zipAt: (i: number) => boolean): boolean {
  // (not where someone lives: "i live in brunswick postcode three oh five six" is an address)
  if (!IN_TOWN.test(at(doc, s - 1)) || residenceBefore(doc, s - 1, 3)) return false;
  let zipStart = -1;
  let zipEnd = -1;
  for (let i = s; i < e; i++) {
    if (zipAt(i)) {
      if (zipEnd >= 0 && zipEnd < i) return false; // two postcodes
      if (zipStart < 0) zipStart = i;
      zipEnd = i + 1;
      continue;
    }
    const w = at(doc, i);
    if (numeric(w) || gazetteerTags(w).some((g) => STREETISH.includes(g))) return false;
  }
  return zipStart >= 0 && zipStart - s <= 3 && e - zipEnd <= 3 && doc.words.slice(s, zipStart).some((w) => !POSTCODE_LABEL.test(w.norm));
}
