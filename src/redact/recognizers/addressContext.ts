// Places that take an address's shape but are no one's address, told by the words around them (issue #32, wrong
// Address masks): a numbered road named where something happened ("a line down on Route 9 near mile marker 44"),
// a storage unit ("the storage unit is 3056, unit number C-118"), a tax form's box ("On the W-2, box 1 says ...").
// Shared by the rules (address.ts, boxAddress.ts) and the tagger's Address filters (tagger.ts). Each look is a
// fixed window of words, so detection stays linear in the text's length.
import { phrase, type Doc } from './doc.js';
import { STREET_SUFFIX } from './places.js';

/** Word i ends a written sentence (a comma does not: "On the W-2, box 1 ..." is one sentence). */
const sentenceEnd = (doc: Doc, i: number) => !doc.spoken && /[.!?]["')\]]*$/.test(doc.words[i]?.raw ?? '');

/** Words that say someone lives, or something is sent, at the place after them: then it is an address after all. */
const RESIDENCE = /^(live|lives|lived|living|reside|resides|address|home|house|located|deliver|delivered|delivery|ship|shipped|shipping|send|sent|mail|mailed|mailing|moved)$/;
/** A residence or sending cue in the `window` words before word i. */
export function residenceBefore(doc: Doc, i: number, window = 8): boolean {
  for (let k = i - 1; k >= Math.max(0, i - window); k--) if (RESIDENCE.test(doc.words[k].norm)) return true;
  return false;
}

/** Words after a place that say someone lives there: "unit 118 is where I sleep", "Box 1234 ... as my address", "is home". */
const RESIDENCE_AFTER = /^(live|lives|living|lived|reside|resides|address|addresses|home|sleep|sleeping|stay|staying|mail|mailed|mailing)$/;
/** A residence cue in the `window` words from word `end` on, within one written sentence (a comma does not end it). */
export function residenceAfter(doc: Doc, end: number, window = 8): boolean {
  for (let k = end; k < Math.min(doc.words.length, end + window); k++) {
    if (RESIDENCE_AFTER.test(doc.words[k].norm)) return true;
    if (sentenceEnd(doc, k)) return false;
  }
  return false;
}

/** Where on a road something is, said right after the road's number: "near mile marker 44", "northbound at exit 12". */
const ROAD_SPOT = /^(?:(?:near|at|by|past|around|before|after|just|right)\s+){0,2}(mile marker|milepost|mile post|exit|mm|northbound|southbound|eastbound|westbound|overpass|underpass|on-ramp|off-ramp|ramp)\b/;

/**
 * A numbered road ("Route 9", "route nine") ending at word `end` is a place on the road where something is or
 * happened (a downed line, a crash), not a mailing address: a mile marker, an exit or a direction of travel follows,
 * and no one is said to live there or be sent something ("I live on Route 9 near mile marker 44" stays an address).
 */
export function roadSpot(doc: Doc, start: number, end: number): boolean {
  if (!ROAD_SPOT.test(phrase(doc, end, end + 4))) return false;
  return !residenceBefore(doc, start);
}

/** Words that end the look back for "storage": a home's own words ("apartment", "live") or a street's type. */
const HOME = /^(apartment|apt|flat|suite|condo|building|street|st|avenue|ave|road|rd|lane|drive|dr|way|court|boulevard|blvd)$/;
/**
 * Word i ("unit", "locker") is a storage unit's, not a flat's: "storage" in the eight words before it, within one
 * sentence, with no home or street word between ("the storage unit is 3056, unit number C-118"). "12 Oak Street,
 * unit 3B" has none; nor has a unit someone lives in ("storage unit 118 is where I sleep") or one of a street address
 * ("storage, unit 12 at 40 Pine Rd").
 */
export function storageUnitAt(doc: Doc, i: number): boolean {
  if (!/^(unit|units|locker)$/.test(doc.words[i]?.norm ?? '')) return false;
  let storage = false;
  for (let k = i - 1; k >= Math.max(0, i - 8) && !sentenceEnd(doc, k) && !storage; k--) {
    const w = doc.words[k].norm;
    if (/^(storage|lockers)$/.test(w)) storage = true;
    else if (HOME.test(w) || RESIDENCE.test(w)) return false;
  }
  return storage && !residenceAfter(doc, i + 1) && !streetAddressAfter(doc, i + 1);
}

/** A number said or written: "12", "12B", "one", "eighteen". */
const NUMBER_WORD = /^(\d+[a-z]?|zero|oh|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand)$/;
/**
 * A unit's number from word k, then "at" (or "on", "of") and a house number and a street type within four words:
 * "unit 12 at 40 Pine Rd", "unit twelve at forty pine road". The unit is part of that address.
 */
function streetAddressAfter(doc: Doc, k: number): boolean {
  const norm = (j: number) => doc.words[j]?.norm ?? '';
  const from = k;
  while (k < from + 5 && (NUMBER_WORD.test(norm(k)) || (/^\p{L}$/u.test(norm(k)) && k > from))) k++;
  if (k === from || !/^(at|on|of)$/.test(norm(k)) || !NUMBER_WORD.test(norm(k + 1))) return false;
  for (let j = k + 2; j < k + 7; j++) if (STREET_SUFFIX.has(norm(j))) return true;
  return false;
}

/** A tax or other form named before a box: "W-2", "w two", "1099", "form", "schedule". */
const FORM = /\b(w (2|two|4|four|9|nine)|w2|w4|w9|1099|1098|ten ninety (eight|nine)|form|forms|schedule|irs)\b/;
/** What a form's box does: it says, shows or reads an amount. */
const BOX_READS = /^(says|said|shows|showed|reads|read|lists|listed|reports|reported|has|had)$/;

/**
 * "box" at word i with its number ending at `end` is a box on a form ("On the W-2, box 1 says $52,310.44"), not a
 * post office box: a form is named in the four words before it (not across a sentence's end), or the box "says" or
 * "shows" something, and no one is said to live or get mail there in the words around it. "PO Box 1234" and "mail
 * it to box 1234" are not read here (address.ts, boxAddress.ts); nor is a box with its town after it (boxAddress.ts).
 */
export function formBox(doc: Doc, i: number, end: number): boolean {
  // (a box someone gets mail at, said before or after it: "Box 1234 shows on the W-2 as my address")
  if (residenceBefore(doc, i, 6) || residenceAfter(doc, end)) return false;
  if (BOX_READS.test(doc.words[end]?.norm ?? '')) return true;
  let k = i;
  while (k > Math.max(0, i - 4) && !sentenceEnd(doc, k - 1)) k--;
  return FORM.test(phrase(doc, k, i));
}
