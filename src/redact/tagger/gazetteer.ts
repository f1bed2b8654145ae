// The word lists the tagger's features consult: humannames (about 197,000 given and family names, MIT), the
// project's name lists (nameData.ts: SSA/Census top names and compromise's lexicon), compromise's ordinary words
// and places, and the address vocabulary of places.ts (street types, US states, countries, unit words,
// directions). Membership is a feature, never a decision: the tagger weighs it against the context.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { COMMON_WORDS, FIRST_NAMES, LAST_NAMES, PLACE_WORDS } from '../recognizers/nameData.js';
import { COUNTRIES, DIRECTIONS, FOREIGN_STREET, STATE_NAMES, STREET_PREFIX, STREET_SUFFIX, STREET_TYPES_MORE, UNIT_WORDS, US_CITIES } from '../recognizers/places.js';
import { STOP } from '../recognizers/stopwords.js';

let humannames: Set<string> | undefined;

/** humannames' list, lower case; read once per thread. */
export function humanNames(): Set<string> {
  if (!humannames) {
    const file = createRequire(import.meta.url).resolve('humannames/list.txt');
    humannames = new Set(fs.readFileSync(file, 'utf8').split('\n').map((x) => x.trim().toLowerCase()).filter((x) => x.length > 1));
  }
  return humannames;
}

const NUMBER_WORDS = new Set(`zero oh one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand double triple`.split(/\s+/));
const MONTHS = new Set('january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec'.split(' '));
const TITLES = new Set(['mr', 'mrs', 'ms', 'miss', 'mister', 'missus', 'dr', 'doctor', 'mx', 'sir', 'madam', 'prof', 'professor']);

const memo = new Map<string, string[]>();
const MEMO_MAX = 50_000;

/** The lists word `w` (lower case) belongs to, as short feature names (remembered for the commonest words). */
export function gazetteerTags(w: string): string[] {
  const hit = memo.get(w);
  if (hit) return hit;
  const out = lookUp(w);
  if (memo.size < MEMO_MAX) memo.set(w, out);
  return out;
}

function lookUp(w: string): string[] {
  const out: string[] = [];
  if (FIRST_NAMES.has(w)) out.push('fn');
  if (LAST_NAMES.has(w)) out.push('ln');
  if (humanNames().has(w)) out.push('hn');
  if (COMMON_WORDS.has(w)) out.push('cw');
  if (STOP.has(w)) out.push('sw');
  if (PLACE_WORDS.has(w) || US_CITIES.has(w)) out.push('pl');
  if (STREET_SUFFIX.has(w) || STREET_PREFIX.has(w)) out.push('st');
  // street types that are also ordinary words or surnames ("park", "hill"), and street names of other languages
  // by their ending ("ryttervej", "mannerheimintie"; not an ordinary word such as "during")
  if (STREET_TYPES_MORE.has(w)) out.push('stx');
  if (w.length > 4 && FOREIGN_STREET.test(w) && !COMMON_WORDS.has(w)) out.push('fst');
  if (STATE_NAMES.has(w)) out.push('state');
  if (COUNTRIES.has(w)) out.push('ctry');
  if (UNIT_WORDS.has(w)) out.push('unit');
  if (DIRECTIONS.has(w)) out.push('dir');
  if (NUMBER_WORDS.has(w) || /^\d+$/.test(w)) out.push('num');
  if (MONTHS.has(w)) out.push('mon');
  if (TITLES.has(w)) out.push('title');
  if (/^[a-z]$/.test(w)) out.push('letter');
  return out;
}
