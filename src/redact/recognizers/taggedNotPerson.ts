// Words the tagger took for a name that the words around them say are something else (issue #32): a place
// travelled to ("travelling to St. Paul", "flying into Washington Dulles"), a suburb beside its postcode ("we're
// in Brunswick, postcode 3056"), a brand before its model number ("the Arris SB8200 modem"), a pet's breed
// ("Mochi, domestic shorthair"), a contraction ("she'd", "shouldve"), a lot or a gate with its letter ("lot d") and a
// mail service spelled ("p r o t o n"), a code's letters joined to its digits ("RO-55018").
// Each is positive evidence against a name: only the tagger's own run is dropped, and what the rules find stays.
import { gazetteerTags } from '../tagger/gazetteer.js';
import { endsClause, type Doc } from './doc.js';
import { fold, FIRST_NAMES } from './nameData.js';
import { serviceSpelled } from './spelled.js';

const norm = (doc: Doc, i: number) => doc.words[i]?.norm ?? '';

/** Prefixes of a town or a saint's place ("St. Paul", "Fort Worth", "San Jose"); not "la", "de": surnames begin so. */
const TOWN_PREFIX = /^(st|st\.|saint|ste|ste\.|san|santa|santo|sao|são|fort|ft|ft\.|port|mount|mt|mt\.)$/;
/** Words that place what follows ("to", "into", "in"...). */
const PLACING = /^(to|into|in|from|near|at|via|through|around|visiting|visit|outside)$/;
/** Verbs of travel before "to", "into", "from" ("flying into", "driving to", "heading out to"). */
const TRAVEL = /^(fly|flying|flew|flown|travel|travelling|traveling|travelled|traveled|drive|driving|drove|go|going|went|head|heading|headed|move|moving|moved|land|landing|landed|arrive|arriving|arrived|connect|connecting|relocating|relocate|commute|commuting|trip|flight|out|back|down|up|over)$/;
const isPlace = (w: string) => gazetteerTags(w).some((g) => g === 'pl' || g === 'state' || g === 'ctry') || gazetteerTags(fold(w)).some((g) => g === 'pl' || g === 'state' || g === 'ctry');

/**
 * A place travelled to: after a town's prefix that follows a placing word ("travelling to St. Paul", "in Fort
 * Worth"), or a city, state or country first after travel and "to"/"into"/"from" ("flying into Washington Dulles").
 * "Mr. St. John", "a call to Charlotte" stay names.
 */
function placeTravelled(doc: Doc, s: number): boolean {
  if (TOWN_PREFIX.test(norm(doc, s - 1)) && PLACING.test(norm(doc, s - 2))) return true;
  // ("flying out of Atlanta")
  if (isPlace(norm(doc, s)) && norm(doc, s - 1) === 'of' && norm(doc, s - 2) === 'out') return true;
  if (!isPlace(norm(doc, s)) || !/^(to|into|from|via)$/.test(norm(doc, s - 1))) return false;
  return TRAVEL.test(norm(doc, s - 2)) || (TRAVEL.test(norm(doc, s - 3)) && !endsClause(doc, s - 3));
}

/** Words that name a postcode. */
const POSTCODE = /^(postcode|postcodes|postal|zip|zipcode|post)$/;
/** How far a postcode's word may be from a suburb named beside it, in words ("postcode is three oh five six thats brunswick"). */
const POSTCODE_WINDOW = 10;
/**
 * A suburb or town named beside a postcode, after "in" or "that's" ("We're in Brunswick, postcode 3056", "our
 * postcode is 3056, that's Brunswick"): one or two words, no listed given name among them.
 */
function suburbByPostcode(doc: Doc, s: number, e: number): boolean {
  if (e - s > 2 || !/^(in|near|thats|that's|at|from)$/.test(norm(doc, s - 1))) return false;
  for (let i = s; i < e; i++) if (FIRST_NAMES.has(norm(doc, i))) return false;
  for (let i = Math.max(0, s - POSTCODE_WINDOW); i < Math.min(doc.words.length, e + POSTCODE_WINDOW); i++) if (POSTCODE.test(norm(doc, i))) return true;
  return false;
}

/** A model code's first word: a letter before a letter or a number, or letters and digits in one word ("s b eighty two hundred", "SB8200"). */
const codeStart = (doc: Doc, i: number) => /^\p{L}$/u.test(norm(doc, i)) ? /^(\p{L}|\d+|zero|oh|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)$/u.test(norm(doc, i + 1)) : /^(\p{L}+-?\d|\d+-?\p{L})[\p{L}\d-]*$/u.test(norm(doc, i));
/** A brand between an article and its model code ("the arris s b eighty two hundred modem", "my Arris SB8200"). */
const brandBeforeModel = (doc: Doc, s: number, e: number) => e - s === 1 && /^(the|a|an|my|our|your|this|that|their)$/.test(norm(doc, s - 1)) && !endsClause(doc, s) && codeStart(doc, e);

/** Breeds of cats and dogs (a pet's, not a person's). */
const BREED = /^(shorthair|longhair|shorthaired|longhaired|tabby|siamese|persian|ragdoll|bengal|sphynx|retriever|terrier|spaniel|poodle|beagle|bulldog|labrador|husky|dachshund|chihuahua|schnauzer|pug|collie|corgi|labradoodle|goldendoodle|doodle|rottweiler|pomeranian|greyhound|whippet|mastiff|pitbull|shih|tzu)$/;
/** Words before a breed ("domestic shorthair", "golden retriever", "mini poodle"). */
const BREED_WORD = /^(domestic|short|long|medium|golden|mixed|mix|cross|black|white|orange|grey|gray|brown|yellow|chocolate|lab|standard|toy|mini|miniature|pit|german|french|english|british|american|jack|russell|border|maine|coon)$/;
/**
 * A pet with its breed: the run holds a breed and, besides the breed's words, at most the pet's name before them
 * ("Mochi, domestic shorthair", "domestic shorthair"); a run with more is left as it is.
 */
function petWithBreed(doc: Doc, s: number, e: number): boolean {
  let breed = false;
  let other = 0;
  for (let i = s; i < e; i++) {
    if (BREED.test(norm(doc, i))) breed = true;
    else if (!BREED_WORD.test(norm(doc, i))) {
      if (breed || i !== s) return false;
      other++;
    }
  }
  return breed && other <= 1;
}

/** Contractions, written or as ASR writes them ("she'd", "they'll", "shouldve", "wouldve"): never a name. */
const CONTRACTED = /^((i|you|he|she|we|they|it|that|there|who|what|where|how)['’](d|ll|ve|re|s|m)|(should|would|could|must|might)(ve|nt|n't|'ve)|(should|would|could)a)$/;

/** Places and spots named by a letter or number ("lot d", "gate b", "terminal 4"). */
const SPOT = /^(lot|gate|terminal|section|row|aisle|bay|level|zone|dock|pier|platform|building|block|wing|ward|hall|booth|stall|spot|space|suite|floor|deck|concourse|car|coach|carriage)$/;
const spotWithCode = (doc: Doc, s: number, e: number) => e - s === 1 && SPOT.test(norm(doc, s)) && /^(\p{L}|\d+[a-z]?)$/u.test(norm(doc, e));

/** Letters that spell the mail service of the e-mail just given ("at proton mail dot com, p r o t o n"): no one's name. */
function spelledService(doc: Doc, s: number, e: number): boolean {
  let spelt = '';
  for (let i = s; i < e; i++) {
    if (!/^\p{L}$/u.test(norm(doc, i))) return false;
    spelt += norm(doc, i);
  }
  return serviceSpelled(doc, spelt, s);
}

/** Letters joined by a hyphen to the digits after them, written: a code's prefix ("repair order RO-55018", "AB-44718"). */
const codePrefix = (doc: Doc, s: number, e: number) =>
  !doc.spoken && e - s === 1 && doc.words[s].raw.endsWith('-') && /^\d/.test(norm(doc, e)) && doc.words[e].start === doc.words[s].end + 1;

/** Whether the tagger's Person run [s, e) is something else by the words around it. */
export function taggedNotPerson(doc: Doc, s: number, e: number): boolean {
  if ((e - s === 1 && CONTRACTED.test(norm(doc, s))) || spelledService(doc, s, e) || codePrefix(doc, s, e)) return true;
  return placeTravelled(doc, s) || suburbByPostcode(doc, s, e) || brandBeforeModel(doc, s, e) || petWithBreed(doc, s, e) || spotWithCode(doc, s, e);
}
