// A "name" that stands inside an address is part of the address: streets named after people ("Bulevardul Gheorghe
// Popescu, Bloc 53", "906 Travessa Aline", "Matije Petra Katančića 489", "Simon sétány 4") and towns that are also
// given names ("..., Davi do Sul", "Raionul Ella"). The name rules and the tagger read such words as a Person; this
// stage, after every recognizer, names them Address instead. It only ever changes a label, never what is covered
// (the words stay masked), and only where Address is one of the kinds asked for: with Address unwanted the Person
// stays, so that nothing is less redacted than before.
import { startsWithCue } from './digitRuns.js';
import type { EntityKind } from '../entityKinds.js';
import type { Detection } from '../types.js';
import { endsClause, fromWords, wordsOverlapping, type Doc } from './doc.js';
import { COMMON_WORDS } from './nameData.js';
import { STREET_OPENERS } from './addressWords.js';
import { isTitle } from './titles.js';
import { FOREIGN_STREET, STREET_SUFFIX, STREET_TYPES_MORE, UNIT_WORDS } from './places.js';

/** Unit words of other languages' addresses ("Bloc 53", "Sc. 2", "Et. 4"), with the project's unit words. */
// (not "number" or "no": "Felipe A. Duarte, number 6011 ..." is a card's holder)
const UNIT = new Set([...[...UNIT_WORDS].filter((w) => !/^(number|no|#)$/.test(w)), 'bloc', 'bl', 'sc', 'scara', 'et', 'etaj', 'ap', 'flat', 'lgh', 'dom', 'kat']);
/** Street words before a name that are also everyday English ("sent via John", "the avenue Mary took"): written and capitalised only. */
const EVERYDAY_PREFIX = new Set(['via', 'avenue', 'boulevard', 'plaza', 'largo', 'ronda', 'corso', 'acesso']);
/** What follows a number that counts or measures: "John 50 dollars" is no street. */
const MEASURE = /^(dollars?|cents?|bucks|euros?|pounds?|percent|times?|minutes?|hours?|days?|weeks?|months?|years?|am|pm|o'?clock|digits|people|items|calls|texts|gb|mb|points|degrees?|miles?|kilos?|kg|lbs|each|of|or|to|and)$/;

const cap = (doc: Doc, i: number) => /^\p{Lu}/u.test(doc.words[i]?.raw.replace(/^[^\p{L}]+/u, '') ?? '');

/** Word i opens a street before its name: "Bulevardul", "Travessa", "Rua" (an everyday word only capitalised, written). */
function streetPrefix(doc: Doc, i: number): boolean {
  const w = doc.words[i]?.norm;
  if (!w || !STREET_OPENERS.has(w) || endsClause(doc, i)) return false;
  return !EVERYDAY_PREFIX.has(w) || (!doc.spoken && cap(doc, i));
}

/** Word i is a written house number: "489", "17A", "59/22"; not an amount, a time or a year. */
function writtenHouseNumber(doc: Doc, i: number): boolean {
  const w = doc.words[i];
  if (!w || doc.spoken || !/^\d{1,5}[a-z]?(\/\d{1,4}[a-z]?)?$/.test(w.norm) || /^[$€£#]|:/.test(w.raw)) return false;
  return !MEASURE.test(doc.words[i + 1]?.norm ?? '');
}

const SPOKEN_NUMBER = /^(zero|oh|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand)$/;
const SPOKEN_HOUSE = /^(zero|oh|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand)[a-z]?$/;
/** How many words from i say a house number (none when what follows counts or measures: "two hundred dollars"). */
function spokenNumberAt(doc: Doc, i: number): number {
  let k = i;
  while (k < doc.words.length && k - i < 6 && SPOKEN_HOUSE.test(doc.words[k].norm)) k++;
  return k > i && MEASURE.test(doc.words[k]?.norm ?? '') ? 0 : k - i;
}

/** Street types of other languages, after the name ("Ármin sétány", "Lochner Str.", "Rəhman sh."): no English word among them. */
const FOREIGN_TYPE = new Set(`str strasse straße utca út útja körút országút sétány rakpart tér köz fasor sokak sokağı caddesi cad cd
bulvarı bulvari xiyoboni ko'chasi kochasi küçəsi prospekti sahəsi döngəsi laukums iela gatve dambis gāte prospekts
bulvāris vej gade väg vägen gata gatan gränd veien vei katu kuja polku tori straat laan gracht singel cesta ulica
sh sor liget lakótelep lakotelep trg vijenac šetalište namesti náměstí ulice třída`.split(/\s+/));
function foreignType(doc: Doc, i: number): boolean {
  const w = doc.words[i]?.norm.replace(/\.$/, '');
  if (!w) return false;
  // "sh" only with a number after it ("Rəhman sh., 166")
  if (w === 'sh') return writtenHouseNumber(doc, i + 1) || spokenNumberAt(doc, i + 1) > 0;
  return FOREIGN_TYPE.has(w);
}
/** Words that open a town's name: "Neu Aylin", "Süd Lea", "Bad Logan". */
const TOWN_PREFIX = new Set(['new', 'neu', 'nord', 'süd', 'sud', 'ost', 'west', 'north', 'south', 'east', 'bad', 'alt', 'groß', 'gross', 'klein', 'upper', 'lower', 'port', 'fort', 'saint', 'san', 'santa']);
const STOPWORD = /^(is|was|has|had|and|or|the|a|an|to|at|in|on|for|with|from|of|i|you|we|it|it's|its|that|this|please|by|yeah|yes|so|okay|ok|um|uh|as|\p{L})$/u;
const streetTypeWord = (w: string) => STREET_SUFFIX.has(w) || STREET_TYPES_MORE.has(w);

/** A house number or a street word among words [from, s): what makes a run of words an address before a name in it. */
function streetBefore(doc: Doc, from: number, s: number): boolean {
  for (let i = from; i < s; i++) if (!doc.spoken && /[!?]["')\]]*$|\p{L}{4,}\.["')\]]*$/u.test(doc.words[i].raw)) return false;
  for (let i = from; i < s; i++) if (/\d/.test(doc.words[i].norm) || STREET_OPENERS.has(doc.words[i].norm) || STREET_SUFFIX.has(doc.words[i].norm) || STREET_TYPES_MORE.has(doc.words[i].norm)) return true;
  return false;
}

/** A unit right after words [.., e): "..., Bloc 53", "..., Apt 28A" (written, after a comma). */
const unitAfter = (doc: Doc, e: number) => !doc.spoken && endsClause(doc, e - 1) && /,["')\]]*$/.test(doc.words[e - 1].raw) && UNIT.has(doc.words[e]?.norm.replace(/\.$/, '') ?? '');

/**
 * Where the address words around a Person run [s, e) reach, or undefined when nothing says address: a street
 * prefix just before it, a written house number just before or after it (one lower-case street word between:
 * "Simon sétány 4"), a unit after it, an address just before it (written, after a comma: a town), a postcode
 * just after it.
 */
function addressAround(doc: Doc, s: number, e: number, others: readonly Detection[]): [number, number] | undefined {
  let from = s;
  let to = e;
  let found = false;
  if (s > 0 && streetPrefix(doc, s - 1)) ((from = s - 1), (found = true));
  if (from > 0 && writtenHouseNumber(doc, from - 1) && !endsClause(doc, from - 1) && (found || cap(doc, s))) ((from -= 1), (found = true));
  if (!endsClause(doc, e - 1)) {
    if (writtenHouseNumber(doc, e)) ((to = e + 1), (found = true));
    else if (!doc.spoken && /^\p{Ll}[\p{L}'-]+$/u.test(doc.words[e]?.raw ?? '') && !endsClause(doc, e) && writtenHouseNumber(doc, e + 1) && s > 0 && !/^(is|was|has|had|and|or|the|a|an|to|at|in|on|for|with|from|of)$/.test(doc.words[e].norm)) ((to = e + 2), (found = true));
  }
  // a street name of another language or a house number said inside the run: "hinterweg fourc neu aylin"
  for (let i = s; i < e && e - s >= 2; i++) {
    const w = doc.words[i].norm;
    if ((w.length > 5 && FOREIGN_STREET.test(w) && !COMMON_WORDS.has(w)) || (doc.spoken && /^(one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)[a-z]$/.test(w))) found = true;
  }
  // a street word opening the run itself: "Impasse des Cultes 832b", "aleea plutonier nita ion bloc eighteen"
  if (streetPrefix(doc, s) && e - s >= 2) found = true;
  // a street type of another language right after the name: "Ármin sétány", "stephan lochner str eighty sevenc"
  // (or after one more name word, said: "stephan lochner str"), or ending the run ("Fixheider Str. 640")
  if (e - s >= 2 && foreignType(doc, e - 1)) found = true;
  const typeAt = !endsClause(doc, e - 1) && foreignType(doc, e) ? e : doc.spoken && foreignType(doc, e + 1) && !STOPWORD.test(doc.words[e].norm) ? e + 1 : -1;
  if (typeAt >= 0) {
    to = typeAt + 1;
    found = true;
    if (writtenHouseNumber(doc, to)) to++;
  }
  // said: a house number after the name (two number words or more, or one with a letter: "sixty onea"), or one
  // before it and a street type after it ("two greta chase")
  if (doc.spoken) {
    const n = spokenNumberAt(doc, to);
    if (n >= 2 || (n === 1 && /[a-z]$/.test(doc.words[to].norm) && !SPOKEN_NUMBER.test(doc.words[to].norm))) ((to += n), (found = true));
    else if (s > 0 && SPOKEN_NUMBER.test(doc.words[s - 1].norm) && (streetTypeWord(doc.words[e]?.norm ?? '') || foreignType(doc, e) || doc.words[e]?.norm === 'via')) found = true;
    // a house number one or two words after the name, in an address: "at ivana gorana kovačića one hundred thirty one"
    // (not after "name is", "holder is", nor with a number's cue between: "account holder is bernadette okafor
    // routing oh one four ...")
    else if (s > 1 && /^(at|to|is|so|on|address)$/.test(doc.words[s - 1].norm) && !/^(name|holder|cardholder|owner|policyholder|subscriber|member|beneficiary|payee)$/.test(doc.words[s - 2].norm) && [1, 2].some((k) => e + k < doc.words.length && !doc.words.slice(e, e + k).some((x) => STOPWORD.test(x.norm) || SPOKEN_HOUSE.test(x.norm) || startsWithCue(x.norm)) && spokenNumberAt(doc, e + k) >= 2)) {
      const k = [1, 2].find((k) => spokenNumberAt(doc, e + k) >= 2)!;
      ((to = e + k + spokenNumberAt(doc, e + k)), (found = true));
    }
    // a number after "at", "to", "is" before the name: "we were at eight sara garth", "it's seventy nine wyatt paddock"
    else if (s > 0 && SPOKEN_NUMBER.test(doc.words[s - 1].norm)) {
      let k = s - 1;
      while (k > 0 && SPOKEN_NUMBER.test(doc.words[k - 1].norm)) k--;
      if (/^(at|to|is|it's|its|on|address)$/.test(doc.words[k - 1]?.norm ?? '')) ((from = k), (found = true));
    }
  }
  // "we are on Madalyn Parks", "the street is bernardo dale": a name and a street type after "on" or "street is"
  if ((doc.words[s - 1]?.norm === 'on' || (doc.words[s - 1]?.norm === 'is' && doc.words[s - 2]?.norm === 'street')) && e - s >= 1) {
    const last = doc.words[e - 1].norm;
    const next = doc.words[e]?.norm ?? '';
    if ((e - s >= 2 && (streetTypeWord(last) || last === 'radial')) || (!endsClause(doc, e - 1) && (streetTypeWord(next) || next === 'radial'))) {
      if (!(e - s >= 2 && streetTypeWord(last))) to = Math.max(to, e + 1);
      found = true;
    }
  }
  // a town: "..., Neu Aylin", "süd lea", "nord yannick" after a house number or a street word
  if (s >= 2 && TOWN_PREFIX.has(doc.words[s - 1].norm) && (!doc.spoken ? cap(doc, s - 1) && endsClause(doc, s - 2) : SPOKEN_HOUSE.test(doc.words[s - 2].norm) || foreignType(doc, s - 2))) ((from = Math.min(from, s - 1)), (found = true));
  if (unitAfter(doc, e)) found = true;
  for (const d of others) {
    const r = wordsOf(doc, d);
    if (!r) continue;
    // inside an address, after its number or street word: "14318 Marginal Maria Helena, Daniel do Sul 14204-790",
    // "27422 Hirthe Lock, New Rodger, WA" (the tagger's address run, the name rules' Person inside it)
    if (d.kind === 'Address' && r.wordStart < s && r.wordEnd >= e && streetBefore(doc, r.wordStart, s)) found = true;
    // a town after a street: "906 Travessa Souza, Davi do Sul"
    if (d.kind === 'Address' && r.wordEnd === s && !doc.spoken && endsClause(doc, s - 1) && /,["')\]]*$/.test(doc.words[s - 1].raw)) found = true;
    // a town before its postcode: "Jasper N2L 7X9", "Raionul Ella 6186"
    if (d.kind === 'ZipCode' && r.wordStart === e) found = true;
  }
  return found ? [from, to] : undefined;
}

/** The words a detection covers (its own, or those its characters overlap). */
const wordsOf = (doc: Doc, d: Detection) => (d.wordStart !== undefined ? { wordStart: d.wordStart, wordEnd: d.wordEnd! } : wordsOverlapping(doc, d.start, d.end));

/**
 * A title or a rank right before words [s, e) ("Petty Officer Delia Quon", "Sgt. Ruiz", said "sergeant ruiz"), and
 * no street type right after them nor a house number before the title: a streets named after someone ("12 General
 * Pershing Street", "Captain Cook Drive") stays an address.
 */
function titledName(doc: Doc, s: number, e: number): boolean {
  const t = doc.words[s - 1];
  if (!t || !isTitle(t.norm) || (!doc.spoken && !cap(doc, s - 1)) || endsClause(doc, s - 1)) return false;
  const after = doc.words[e]?.norm.replace(/\.$/, '') ?? '';
  if ((!endsClause(doc, e - 1) && (streetTypeWord(after) || foreignType(doc, e))) || streetTypeWord(doc.words[e - 1].norm)) return false;
  let k = s - 1;
  while (k > 0 && isTitle(doc.words[k - 1].norm) && !endsClause(doc, k - 1)) k--;
  return !(k > 0 && (writtenHouseNumber(doc, k - 1) || (doc.spoken && SPOKEN_HOUSE.test(doc.words[k - 1].norm))));
}

/**
 * Person detections inside an address become Address detections over the same words and the address words beside
 * them (coverage only grows). Detections of other kinds, and every detection when Address is not wanted, are as
 * they came.
 */
export function personInAddress(doc: Doc, detections: readonly Detection[], wanted: ReadonlySet<EntityKind>): Detection[] {
  if (!wanted.has('Address') || !detections.some((d) => d.kind === 'Person')) return [...detections];
  const others = detections.filter((d) => d.kind === 'Address' || d.kind === 'ZipCode');
  return detections.flatMap((d) => {
    if (d.kind !== 'Person') return [d];
    const r = d.wordStart !== undefined ? { wordStart: d.wordStart, wordEnd: d.wordEnd! } : wordsOverlapping(doc, d.start, d.end);
    if (!r) return [d];
    const around = addressAround(doc, r.wordStart, r.wordEnd, others);
    // a name after a title or a rank is a person's, whatever address follows ("Petty Officer Delia Quon, Unit ..."):
    // the name stays a Person and the address words around it (not the title) stay an Address ("mr john smith forty
    // two juniper")
    if (titledName(doc, r.wordStart, r.wordEnd)) {
      if (!around) return [d];
      const out = [d];
      let k = r.wordStart - 1;
      while (k > 0 && isTitle(doc.words[k - 1].norm) && !endsClause(doc, k - 1)) k--;
      const mark = (from: number, to: number) => {
        const a = fromWords(doc, 'Address', from, to, d.confidence, `${d.recognizer}:address`);
        out.push(d.additive ? { ...a, additive: true } : a);
      };
      if (around[0] < k) mark(around[0], k);
      if (around[1] > r.wordEnd) mark(r.wordEnd, around[1]);
      return out;
    }
    if (!around) return [d];
    const a = fromWords(doc, 'Address', around[0], around[1], d.confidence, `${d.recognizer}:address`);
    return [d.additive ? { ...a, additive: true } : a];
  });
}
