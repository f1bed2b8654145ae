// Runs the tagger took for an address that the words in and around them say are something else (issue #32,
// round 6): a contraction after a number ("your copay is seven fifty itll be ready"), a number and its unit ("the
// fan runs at 2,400 RPM"), an airline's code after "flight" ("flight UA 1482"), a product's model code ("t v
// model q n six five q eight oh c", "model x r fourteen seer fourteen"), a business's name before what it does
// ("Owen from Clearpath Dental"). Each is positive evidence against an address: only the tagger's own run is
// dropped, never a rule's, and never a run with a street, place or unit word in it ("12 Model Farm Road").
import { gazetteerTags } from '../tagger/gazetteer.js';
import { endsClause, type Doc } from './doc.js';
import { SPOKEN_NUMBER } from './addressTalk.js';

const norm = (doc: Doc, i: number) => doc.words[i]?.norm ?? '';
const numberWord = (w: string) => /\d/.test(w) || SPOKEN_NUMBER.test(w) || gazetteerTags(w).includes('num');
/** Lists that make a word an address's own (a street type, a unit, a direction, a place). */
const ADDRESS_OWN = ['st', 'unit', 'dir', 'pl', 'state', 'ctry'];
// (a letter is none: "n", "e" are a code's letters as often as a direction's)
const addressWord = (w: string) => w.length > 1 && gazetteerTags(w).some((g) => ADDRESS_OWN.includes(g));

/** Contractions, written or as ASR writes them ("it'll", "itll", "thatll", "youd"): never part of an address. */
const CONTRACTED = /^((it|that|this|there|he|she|they|you|we|i|who|what)['’]?(ll|d)|(it|that|there|here|what)['’]s|(they|you|we)['’]?(re|ve)|i['’]?m|i['’]?ve)$/;

/** Units a number is said or written with ("2,400 RPM", "fifteen psi", "a 14 SEER unit"). */
const UNIT = new Set(`rpm rpms mph kph kmh psi btu btus seer cfm hp horsepower dpi fps ppm db decibels lumens lux volt volts amp amps
watt watts kw kwh mah ohm ohms hz khz mhz ghz mbps gbps kbps cc ml mg mcg`.split(/\s+/));

/** Words that say a model's code follows (or is the run): "model", "series", "part". */
const MODEL = /^(model|models|series|sku|part)$/;
/** Words of a product's rating beside its model ("seer fourteen", "energy star"). */
const RATING = /^(seer|eer|hspf|btu|btus|afue|merv|ton|tons|inch|inches)$/;

/** Business words after a business's name ("Clearpath Dental", "Brightside Plumbing"). */
const BUSINESS = new Set(`dental dentistry orthodontics ortho medical clinic clinics health healthcare pharmacy vision optical
eyecare chiropractic physio physiotherapy pediatrics dermatology veterinary vet animal plumbing heating cooling hvac roofing
electric electrical landscaping lawn pest cleaning cleaners auto automotive motors collision towing insurance realty
properties property management bank credit lending mortgage financial finance wireless telecom cable internet energy
solar utilities logistics shipping movers moving storage fitness gym spa salon studio bakery cafe pizza kitchen
foods market grocery hardware supply supplies furniture appliance appliances electronics computers software labs
law legal accounting tax consulting services solutions group`.split(/\s+/));
/** Words a business's name follows when someone says where they are from or call ("it's Owen from ..."). */
const FROM = /^(from|with|at|calling|call|for)$/;

/** A number right before word i (written or said), no clause's end between. */
const numberBefore = (doc: Doc, i: number) => i > 0 && numberWord(norm(doc, i - 1)) && !endsClause(doc, i - 1);

/** Words that say a place where someone lives or is follows ("my house is", "unit 4", "ship it to"). */
const RESIDENCE = /^(house|home|live|lives|living|lived|reside|resides|address|addresses|unit|apt|apartment|suite|ste|flat|located|location|ship|shipping|shipped|send|sent|deliver|delivered|delivery|mail|mailed|mailing|street|road|avenue|building|condo|place|property|moved|move)$/;
/** Words before "at" that make it where someone is ("i'm at", "we're at", "she's at"). */
const BEING = /^(i'm|im|am|we're|were|we|i|they're|theyre|you're|youre|he's|hes|she's|shes|is|are|it's|its|me|us|them|stay|staying|stays|over|still|right|now|lives?)$/;

/** Whether a residence's or a location's cue lies within the four words before word s, no clause's end between. */
function residenceCue(doc: Doc, s: number): boolean {
  for (let k = s - 1; k >= Math.max(0, s - 4) && !endsClause(doc, k); k--) {
    const w = norm(doc, k);
    if (RESIDENCE.test(w) || (w === 'at' && BEING.test(norm(doc, k - 1)))) return true;
  }
  return false;
}

/** Words that name where a place is without a street type: "the corner of elm and main". */
const CROSSING = /^(corner|intersection|junction|crossing)$/;
/** Words looked ahead of a run for a street it may be the house number of. */
const STREET_AHEAD = 6;

/**
 * Whether a street, place or unit word (or a corner) follows the run within STREET_AHEAD words: "it's 42 it'll be
 * Oak Street", "fourteen twenty it'll be the corner of elm and main" — the number may be the house's.
 */
function streetAhead(doc: Doc, e: number): boolean {
  for (let k = e; k < Math.min(doc.words.length, e + STREET_AHEAD); k++) {
    const w = norm(doc, k);
    if (addressWord(w) || CROSSING.test(w)) return true;
  }
  return false;
}

/** Whether the tagger's Address run [s, e) is something else by the words in and around it. */
export function taggedNotAddress(doc: Doc, s: number, e: number): boolean {
  const norms = doc.words.slice(s, e).map((w) => w.norm);
  if (norms.some(addressWord)) return false;
  const letters = norms.filter((w) => /\p{L}/u.test(w) && !numberWord(w));
  // (never after a residence's or a location's cue, nor before a street: "my house is fourteen twenty two itll be on
  // the left", "i'm at 9 cc, Sandy Bay", "unit 4 db 22 elm", "it's 42 it'll be Oak Street" stay addresses)
  const cued = residenceCue(doc, s) || streetAhead(doc, e);
  // numbers and a contraction only ("seven fifty itll", "two thousand three itll")
  if (!cued && letters.length > 0 && letters.every((w) => CONTRACTED.test(w)) && norms.some(numberWord)) return true;
  // a number and its unit ("2,400 RPM", "fifteen psi"), the run nothing but them: a unit right after its number
  if (!cued && norms.every((w) => numberWord(w) || UNIT.has(w)))
    for (let i = s; i < e; i++) if (UNIT.has(norm(doc, i)) && numberBefore(doc, i)) return true;
  // an airline's code after "flight" ("flight UA 1482", "flight l h four thirty one"): two letters or a letter
  // and a digit, as one word or two letters said
  if (/^(flight|flights)$/.test(norm(doc, s - 1)) && flightCode(doc, s, e)) return true;
  // a model's code: the run holds "model" or follows it, and is letters, numbers and ratings only after it
  let m = -1;
  for (let i = s - 1; i < e; i++) if (MODEL.test(norm(doc, i)) && (i >= s || !endsClause(doc, i))) m = i;
  if (m >= 0 && m + 1 < e) {
    const code = doc.words.slice(Math.max(m + 1, s), e).map((w) => w.norm);
    if (code.every((w) => /^\p{L}$/u.test(w) || numberWord(w) || RATING.test(w) || /^(\p{L}+\d|\d+\p{L})[\p{L}\d-]*$/u.test(w)) && code.some((w) => /\p{L}/u.test(w) && !numberWord(w))) return true;
  }
  // a business's name before what it does, after "from", "with"...: "Owen from Clearpath Dental"
  if (!norms.some(numberWord) && BUSINESS.has(norm(doc, e)) && FROM.test(norm(doc, s - 1)) && !addressWord(norm(doc, e + 1)) && !numberWord(norm(doc, e + 1))) return true;
  return false;
}

/** Words [s, e) an airline's code and the flight's number: "UA", "UA 1482", "B6", "l h four thirty one". */
function flightCode(doc: Doc, s: number, e: number): boolean {
  const w = (i: number) => norm(doc, i);
  let k = s;
  if (/^[a-z][a-z0-9]$/.test(w(k)) || /^[a-z0-9]{2}\d{1,4}$/.test(w(k))) k++;
  else if (/^\p{L}$/u.test(w(k)) && /^\p{L}$/u.test(w(k + 1))) k += 2;
  else return false;
  while (k < e && numberWord(w(k))) k++;
  return k === e;
}
