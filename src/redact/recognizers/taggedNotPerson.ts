// Words the tagger took for a name that the words around them say are something else (issue #32): a place
// travelled to ("travelling to St. Paul", "flying into Washington Dulles"), a suburb beside its postcode ("we're
// in Brunswick, postcode 3056"), a brand before its model number ("the Arris SB8200 modem"), a pet's breed
// ("Mochi, domestic shorthair"), a contraction ("she'd", "shouldve"), a lot or a gate with its letter ("lot d") and a
// mail service spelled ("p r o t o n"), a code's letters joined to its digits ("RO-55018").
// Each is positive evidence against a name: only the tagger's own run is dropped, and what the rules find stays.
import { gazetteerTags } from '../tagger/gazetteer.js';
import { endsClause, type Doc } from './doc.js';
import { fold, FIRST_NAMES, LAST_NAMES, PLACE_SUFFIX } from './nameData.js';
import { serviceSpelled } from './spelled.js';
import { englishWord } from './englishWords.js';

const norm = (doc: Doc, i: number) => doc.words[i]?.norm ?? '';
/** On a given-name or family-name list ("Miller", "Taylor", "Johnson"): a word the filters below never take for a thing. */
const nameListed = (w: string) => FIRST_NAMES.has(w) || LAST_NAMES.has(w) || FIRST_NAMES.has(fold(w)) || LAST_NAMES.has(fold(w)) || gazetteerTags(w).some((g) => g === 'fn' || g === 'ln');
/** A possessive written ("Taylor's"): someone's, as a place seldom is. */
const possessive = (doc: Doc, i: number) => /['’]s$/.test(norm(doc, i));

/** Prefixes of a town or a saint's place ("St. Paul", "Fort Worth", "San Jose"); not "la", "de": surnames begin so. */
const TOWN_PREFIX = /^(st|st\.|saint|ste|ste\.|san|santa|santo|sao|são|fort|ft|ft\.|port|mount|mt|mt\.)$/;
/** Words that place what follows ("to", "into", "in"...). */
const PLACING = /^(to|into|in|from|near|at|via|through|around|visiting|visit|outside)$/;
/** Verbs of travel before "to", "into", "from" ("flying into", "driving to", "heading out to"). */
const TRAVEL = /^(fly|flying|flew|flown|travel|travelling|traveling|travelled|traveled|drive|driving|drove|go|going|went|head|heading|headed|move|moving|moved|land|landing|landed|arrive|arriving|arrived|connect|connecting|relocating|relocate|commute|commuting|trip|flight|out|back|down|up|over)$/;
const isPlace = (w: string) => gazetteerTags(w).some((g) => g === 'pl' || g === 'state' || g === 'ctry') || gazetteerTags(fold(w)).some((g) => g === 'pl' || g === 'state' || g === 'ctry');

/** Verbs of sending before "to": "deliver to Ste. Marie", "send it to St. Paul" name whom a thing goes to, no journey. */
const SENDING = /^(deliver|delivered|delivering|send|sent|sending|ship|shipped|shipping|mail|mailed|mailing|post|posted|forward|forwarded|address|addressed|give|gave|pay|paid|transfer|transferred|wire|wired|payable|made|write|written|return|returned|refer|referred|assign|assigned)$/;
/** Airports named after their city ("Washington Dulles", "London Heathrow"): a place's second word, no surname. */
const AIRPORT = /^(dulles|heathrow|gatwick|stansted|laguardia|jfk|ohare|o'hare|o’hare|schiphol|orly|narita|haneda|changi|tullamarine|seatac|sea-tac)$/;
/** A word after a place's first that keeps it a place: another place word, a place's suffix ("Beach"), an airport. */
const placeWord = (w: string) => !nameListed(w) && (isPlace(w) || PLACE_SUFFIX.has(w) || AIRPORT.test(w));
/**
 * Whether words [s, e) are only a place: every word after the first a place's own, no possessive ("Austin Taylor's
 * office", "St. Paul Johnson" are people), and no listed name right after them ("saint paul | johnson").
 */
function onlyPlace(doc: Doc, s: number, e: number): boolean {
  for (let i = s; i < e; i++) if (possessive(doc, i) || (i > s && !placeWord(norm(doc, i)))) return false;
  return endsClause(doc, e - 1) || !(nameListed(norm(doc, e)) || possessive(doc, e));
}

/**
 * A place travelled to: after a town's prefix that follows a placing word ("travelling to St. Paul", "in Fort
 * Worth"), or a city, state or country first after travel and "to"/"into"/"from" ("flying into Washington Dulles").
 * "Mr. St. John", "a call to Charlotte", "deliver to Ste. Marie Curie", "flying out of Austin Taylor's office" stay
 * names: no sending verb before the prefix, and nothing in or after the place that makes it a name (onlyPlace).
 */
function placeTravelled(doc: Doc, s: number, e: number): boolean {
  if (!onlyPlace(doc, s, e)) return false;
  if (TOWN_PREFIX.test(norm(doc, s - 1)) && PLACING.test(norm(doc, s - 2))) return !SENDING.test(norm(doc, s - 3)) && !SENDING.test(norm(doc, s - 4));
  // ("flying out of Atlanta")
  if (isPlace(norm(doc, s)) && norm(doc, s - 1) === 'of' && norm(doc, s - 2) === 'out') return true;
  if (!isPlace(norm(doc, s)) || !/^(to|into|from|via)$/.test(norm(doc, s - 1))) return false;
  return TRAVEL.test(norm(doc, s - 2)) || (TRAVEL.test(norm(doc, s - 3)) && !endsClause(doc, s - 3));
}

/** Words that name a postcode. */
const POSTCODE = /^(postcode|postcodes|postal|zip|zipcode|post)$/;
/** How far a postcode's word may be from a suburb named beside it, in words ("postcode is three oh five six thats brunswick"). */
const POSTCODE_WINDOW = 10;
/** Words before "in" that make the town where someone lives ("I live in Brunswick"): masked, part of their address. */
const LIVES = /^(live|lives|living|lived|reside|resides|residing|resident|stay|stays|staying|based)$/;
/** A postcode's word within POSTCODE_WINDOW words of [s, e). */
function postcodeNear(doc: Doc, s: number, e: number): boolean {
  for (let i = Math.max(0, s - POSTCODE_WINDOW); i < Math.min(doc.words.length, e + POSTCODE_WINDOW); i++) if (POSTCODE.test(norm(doc, i))) return true;
  return false;
}
/** Words that open what is said after a town ("it's in Leith and ...", "near penrith so ..."). */
const NEXT_CLAUSE = /^(and|so|but|if|is|thats|that's|its|it's|right|yeah|okay|ok)$/;
/**
 * A town said right after its postcode was given ("The postcode is EH6 7QR, it's in Leith.", "postcode 2760 that's
 * out near Penrith"): a postcode's word before it in the window, and the town closing what is said.
 */
function townAfterPostcode(doc: Doc, s: number, e: number): boolean {
  let given = false;
  for (let i = Math.max(0, s - POSTCODE_WINDOW); i < s && !given; i++) given = POSTCODE.test(norm(doc, i));
  return given && (e >= doc.words.length || endsClause(doc, e - 1) || (doc.spoken && NEXT_CLAUSE.test(norm(doc, e))));
}
/** "in" and a city, state or country at word e ("Coburg, in Melbourne"): what comes before is a place inside it. */
const inPlaceAfter = (doc: Doc, e: number) => norm(doc, e) === 'in' && isPlace(norm(doc, e + 1));
/** Every word of [s, e) a place the gazetteer knows or a place's suffix ("Manchester", "Bondi Beach"). */
function knownPlace(doc: Doc, s: number, e: number): boolean {
  for (let i = s; i < e; i++) if (!isPlace(norm(doc, i)) && !(i > s && PLACE_SUFFIX.has(norm(doc, i)))) return false;
  return true;
}
/**
 * A suburb or town named beside a postcode ("We're in Brunswick, postcode 3056", "our postcode is 3056, that's
 * Coburg, in Melbourne"): one or two words, none on a name list ("near Miller", "that's Keegan" stay names), with
 * evidence of a place. After "in"/"near": a postcode's word or "in <city>" right after it, or a known place. After
 * "that's" (a name's frame too): a known place, or "in <city>" after it. Not where someone lives ("I live in
 * Brunswick"): that stays masked.
 */
function suburbByPostcode(doc: Doc, s: number, e: number): boolean {
  if (e - s > 2 || !postcodeNear(doc, s, e)) return false;
  for (let i = s; i < e; i++) if (nameListed(norm(doc, i)) || possessive(doc, i)) return false;
  const before = norm(doc, s - 1);
  if (before === 'in' || before === 'near') return !LIVES.test(norm(doc, s - 2)) && (POSTCODE.test(norm(doc, e)) || inPlaceAfter(doc, e) || knownPlace(doc, s, e) || townAfterPostcode(doc, s, e));
  if (/^(thats|that's|that’s)$/.test(before)) return knownPlace(doc, s, e) || inPlaceAfter(doc, e);
  return false;
}

/** A model code's first word: a letter before a letter or a number, or letters and digits in one word ("s b eighty two hundred", "SB8200"). */
const codeStart = (doc: Doc, i: number) => /^\p{L}$/u.test(norm(doc, i)) ? CODE_PART.test(norm(doc, i + 1)) : CODE_WORD.test(norm(doc, i));
const CODE_PART = /^(\p{L}|\d+|zero|oh|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand)$/u;
const CODE_WORD = /^(\p{L}+-?\d|\d+-?\p{L})[\p{L}\d-]*$/u;
/** Most words a model code is said in ("s b eighty two hundred"). */
const CODE_WORDS = 6;
/** What a brand's model is: a device ("the Arris SB8200 modem", "the netgear r seven thousand router"). */
const PRODUCT = /^(modem|modems|router|routers|phone|phones|handset|tv|tvs|television|laptop|notebook|tablet|printer|camera|console|speaker|speakers|soundbar|headphones|headset|earbuds|watch|monitor|extender|repeater|gateway|receiver|remote|fridge|refrigerator|freezer|washer|dryer|dishwasher|oven|stove|microwave|vacuum|thermostat|doorbell|charger|adapter|hub|player|projector|drone|scanner|mouse|keyboard|pc|computer|device)$/;
/** Words between a model code and its device ("SB8200 cable modem", "the r seven thousand wifi router"). */
const PRODUCT_KIND = /^(cable|wireless|wifi|wi-fi|mesh|dsl|fiber|fibre|smart|gaming|cordless|mobile|cell|portable|bluetooth|robot|4k|hd|led|oled)$/;
/** Whether a device's noun follows the model code starting at word i (a code of at most CODE_WORDS words, one kind's word between). */
function productAfterCode(doc: Doc, i: number): boolean {
  let k = i + 1;
  while (k < i + CODE_WORDS && !endsClause(doc, k - 1) && (CODE_PART.test(norm(doc, k)) || CODE_WORD.test(norm(doc, k)))) k++;
  if (PRODUCT_KIND.test(norm(doc, k)) && !endsClause(doc, k - 1)) k++;
  return !endsClause(doc, k - 1) && PRODUCT.test(norm(doc, k));
}
/**
 * A brand between an article and its model code, before the device ("the arris s b eighty two hundred modem", "my
 * Arris SB8200 router"); "the Garcia B2 household" is a family: no device, no brand.
 */
const brandBeforeModel = (doc: Doc, s: number, e: number) => e - s === 1 && /^(the|a|an|my|our|your|this|that|their)$/.test(norm(doc, s - 1)) && !endsClause(doc, s) && codeStart(doc, e) && productAfterCode(doc, e);

/** Breeds of cats and dogs (a pet's, not a person's). */
const BREED = /^(shorthair|longhair|shorthaired|longhaired|tabby|siamese|persian|ragdoll|bengal|sphynx|retriever|terrier|spaniel|poodle|beagle|bulldog|labrador|husky|dachshund|chihuahua|schnauzer|pug|collie|corgi|labradoodle|goldendoodle|doodle|rottweiler|pomeranian|greyhound|whippet|mastiff|pitbull|shih|tzu)$/;
/** Words before a breed ("domestic shorthair", "golden retriever", "mini poodle"). */
const BREED_WORD = /^(domestic|short|long|medium|golden|mixed|mix|cross|black|white|orange|grey|gray|brown|yellow|chocolate|lab|standard|toy|mini|miniature|pit|german|french|english|british|american|jack|russell|border|maine|coon)$/;
/** Words of pets and their care: a breed beside one is a pet's ("my dog, a collie", "the vet said"). */
const PET = /^(pet|pets|cat|cats|kitty|kitten|kittens|dog|dogs|doggy|puppy|puppies|pup|pups|breed|breeds|vet|vets|veterinarian|veterinary|kennel|cattery|groomer|grooming|litter|leash|collar|neutered|spayed|microchip|microchipped|paw|paws|fur|feline|canine)$/;
/** How far a pet's word may be from the breed, in words. */
const PET_WINDOW = 8;
/** Words that introduce the speaker or someone by name right before a run ("I'm Pat Collie", "my name is ..."). */
const NAME_CUE = /^(im|i'm|i’m|names|name's|name’s|called|call|surname|named|mr|mrs|ms|miss|dr)$/;
function nameCueBefore(doc: Doc, s: number): boolean {
  const b = norm(doc, s - 1);
  if (NAME_CUE.test(b)) return true;
  // "I am X", "my name is X", "this is X" ("the cat's name is X": a pet word is nearby and wins there)
  return (b === 'am' && norm(doc, s - 2) === 'i') || (b === 'is' && /^(name|this)$/.test(norm(doc, s - 2)));
}
/** A pet's word within PET_WINDOW words of [s, e), or a pet had ("I have Mochi, domestic shorthair"): evidence of a pet. */
function petNear(doc: Doc, s: number, e: number): boolean {
  for (let i = Math.max(0, s - PET_WINDOW); i < Math.min(doc.words.length, e + PET_WINDOW); i++) if (PET.test(norm(doc, i))) return true;
  return false;
}
/** A breed named with a word of its own before it ("domestic shorthair", "golden retriever"), no name among them. */
function breedPhrase(doc: Doc, s: number, e: number): boolean {
  // (the breed's own word may lie just outside the run: "domestic | shorthair")
  for (let i = s; i < e; i++) if (BREED.test(norm(doc, i)) && BREED_WORD.test(norm(doc, i - 1)) && !nameListed(norm(doc, i - 1))) return true;
  return false;
}
/**
 * A pet with its breed: the run holds a breed and, besides the breed's words, at most the pet's name before them
 * ("Mochi, domestic shorthair", "domestic shorthair"); a run with more is left as it is. A breed is a surname too
 * ("I'm Pat Collie"): it takes evidence of a pet (a breed said with its own word before it, or a pet's word near),
 * the pet's name set off from the breed, and no name's cue before the run.
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
  if (!breed || other > 1 || nameCueBefore(doc, s)) return false;
  const phrase = breedPhrase(doc, s, e);
  // a pet's name is set off from its breed: by a comma written, by the breed's own word said ("pickles domestic
  // shorthair"); "Pat Collie" is a name
  if (other === 1 && !(phrase || (!doc.spoken && endsClause(doc, s)))) return false;
  return phrase || petNear(doc, s, e);
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

/** A number said as a word ("two", "fourteen"): with letters, a code's. */
const SAID_NUMBER = /^(zero|oh|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand)$/;
/**
 * Single letters and numbers said together, nothing else ("x g two v two p", "r d k oh three"): a model's or an
 * error's code, no one's name (a name spelled has no number in it; one spelled after a cue is the cue rules').
 */
function lettersAndNumbers(doc: Doc, s: number, e: number): boolean {
  let letter = false;
  let number = false;
  for (let i = s; i < e; i++) {
    const w = norm(doc, i);
    if (/^\p{L}$/u.test(w)) letter = true;
    else if (SAID_NUMBER.test(w) || /^\d+$/.test(w)) number = true;
    else return false;
  }
  return letter && number;
}

/** Words that say a model's code follows ("a 3-ton Trane, model XR14", "the Bosch series 8"). */
const MODEL = /^(model|series)$/;
/** Before a brand: an article, a size ("a 3-ton", "three ton", "65-inch"), nothing that names a person. */
const BRAND_BEFORE = /^(a|an|the|my|our|your|this|that|their|old|new|\d+-?(ton|inch|in|hp|gallon|quart|cubic|foot|ft|watt|volt)|ton|tons|inch|hp|gallon|quart|cubic|watt|volt)$/;
/**
 * A brand before its model's code ("a 3-ton Trane, model XR14", "three ton trane model x r fourteen"): one word,
 * after an article or a size, before "model"/"series" and a code (letters and digits, or a letter said before a
 * letter or a number). "I spoke to Dana, model number is ..." stays a name: no code after "model", no article.
 */
function brandBeforeModelWord(doc: Doc, s: number, e: number): boolean {
  if (e - s !== 1 || !BRAND_BEFORE.test(norm(doc, s - 1)) || nameCueBefore(doc, s) || !MODEL.test(norm(doc, e))) return false;
  // ("XR14" is read as "XR" and "14": letters glued to digits)
  return codeStart(doc, e + 1) || (/^\p{L}{1,4}$/u.test(norm(doc, e + 1)) && /^\d/.test(norm(doc, e + 2)) && !endsClause(doc, e + 1));
}

/** Words of who a thing is said to be ("my name is", "this is", "the caller is"): a name's frames, kept. */
const NAME_SUBJECT = /^(name|this|that|it|he|she|who|caller|holder|owner|cardholder|technician|tech|agent|rep|representative|doctor|nurse|driver|manager|supervisor|contact|person|user|member|beneficiary|payee|son|daughter|wife|husband|mother|father|mom|dad|brother|sister|friend|partner)$/;
/**
 * An English word said of a thing after "the <thing> is" ("the meal is vegetarian", "the room was spotless"): one
 * word on no name list (not even humannames'), after a thing that no name is said of ("the caller is ...", "my
 * name is ..." stay).
 */
function wordSaidOfThing(doc: Doc, s: number, e: number): boolean {
  if (e - s !== 1 || !/^(is|was|are|were|seems|looks|sounds)$/.test(norm(doc, s - 1)) || !/^(the|my|our|your|this|that|their|his|her)$/.test(norm(doc, s - 3))) return false;
  const w = norm(doc, s);
  if (NAME_SUBJECT.test(norm(doc, s - 2)) || !englishWord(w) || nameListed(w) || gazetteerTags(w).length > 0) return false;
  return /^\p{Ll}/u.test(doc.words[s].raw) || doc.spoken;
}

/** Whether the tagger's Person run [s, e) is something else by the words around it. */
export function taggedNotPerson(doc: Doc, s: number, e: number): boolean {
  if ((e - s === 1 && CONTRACTED.test(norm(doc, s))) || spelledService(doc, s, e) || codePrefix(doc, s, e)) return true;
  if (lettersAndNumbers(doc, s, e) || brandBeforeModelWord(doc, s, e) || wordSaidOfThing(doc, s, e)) return true;
  return placeTravelled(doc, s, e) || suburbByPostcode(doc, s, e) || brandBeforeModel(doc, s, e) || petWithBreed(doc, s, e) || spotWithCode(doc, s, e);
}
