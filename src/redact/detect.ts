// Sensitive-data detection on written text (post-call records, text input) and on ASR words (lower case, no
// punctuation, spoken numbers), with every detection mapped back to character offsets and, for words, word
// indices. Kinds are restricted before anything else. Overlaps choose labels by confidence, then by kind
// priority (ENTITY_KINDS order), then by length; what is covered is the union of every detection (a less
// confident detection that reaches further keeps what only it covers). A recognizer that throws fails closed:
// the whole text is detected under its kind.
import { DEFAULT_KINDS, ENTITY_KINDS, type EntityKind } from './entityKinds.js';
import { abaRoutingRecognizer } from './recognizers/abaRouting.js';
import { addressRecognizer } from './recognizers/address.js';
import { intersectionRecognizer } from './recognizers/intersection.js';
import { boxAddressRecognizer } from './recognizers/boxAddress.js';
import { bankAccountRecognizer } from './recognizers/bankAccount.js';
import { creditCardRecognizer } from './recognizers/creditCard.js';
import { cardTailRecognizer } from './recognizers/cardTail.js';
import { cvvRecognizer } from './recognizers/cvv.js';
import { dateOfBirthRecognizer } from './recognizers/dateOfBirth.js';
import { digitNetRecognizer } from './recognizers/digitNet.js';
import { docFromText, docFromWords, wordsOverlapping, type Doc, type Recognizer } from './recognizers/doc.js';
import { driversLicenseRecognizer } from './recognizers/driversLicense.js';
import { emailRecognizer } from './recognizers/email.js';
import { expirationDateRecognizer } from './recognizers/expirationDate.js';
import { ibanRecognizer } from './recognizers/iban.js';
import { ipAddressRecognizer } from './recognizers/ipAddress.js';
import { organizationRecognizer } from './recognizers/organization.js';
import { passportRecognizer } from './recognizers/passport.js';
import { namesBeside, personRecognizer } from './recognizers/person.js';
import { personFrameRecognizer } from './recognizers/personFrames.js';
import { phoneRecognizer } from './recognizers/phone.js';
import { spelledRecognizer } from './recognizers/spelled.js';
import { ssnRecognizer } from './recognizers/ssn.js';
import { urlRecognizer } from './recognizers/url.js';
import { taggerRecognizer, yieldToRules } from './recognizers/tagger.js';
import { zipCodeRecognizer } from './recognizers/zipCode.js';
import { shortPostcodeRecognizer } from './recognizers/shortPostcode.js';
import { personInAddress } from './recognizers/personInAddress.js';
import { brandsNotNames } from './recognizers/brands.js';
import { streetsRepeated } from './recognizers/streetRepeated.js';
import type { Detection, DetectOptions } from './types.js';

export type { Detection, DetectOptions } from './types.js';

/** Each recognizer with the kinds it may emit. */
export const RECOGNIZERS: { name: string; kinds: EntityKind[]; run: Recognizer }[] = [
  { name: 'ssn', kinds: ['USSocialSecurityNumber'], run: ssnRecognizer },
  { name: 'credit-card', kinds: ['CreditCardNumber', 'USBankAccountNumber'], run: creditCardRecognizer },
  { name: 'phone', kinds: ['PhoneNumber'], run: phoneRecognizer },
  { name: 'cvv', kinds: ['CVV'], run: cvvRecognizer },
  { name: 'expiration-date', kinds: ['ExpirationDate', 'CVV'], run: expirationDateRecognizer },
  { name: 'card-tail', kinds: ['ExpirationDate', 'CVV'], run: cardTailRecognizer },
  { name: 'bank-account', kinds: ['USBankAccountNumber'], run: bankAccountRecognizer },
  { name: 'aba-routing', kinds: ['ABARoutingNumber'], run: abaRoutingRecognizer },
  { name: 'iban', kinds: ['IBAN'], run: ibanRecognizer },
  { name: 'date-of-birth', kinds: ['DateOfBirth'], run: dateOfBirthRecognizer },
  { name: 'drivers-license', kinds: ['USDriversLicenseNumber'], run: driversLicenseRecognizer },
  { name: 'passport', kinds: ['USPassportNumber'], run: passportRecognizer },
  { name: 'ip-address', kinds: ['IPAddress'], run: ipAddressRecognizer },
  { name: 'zip-code', kinds: ['ZipCode'], run: zipCodeRecognizer },
  { name: 'postcode-short', kinds: ['ZipCode'], run: shortPostcodeRecognizer },
  { name: 'email', kinds: ['Email'], run: emailRecognizer },
  { name: 'person', kinds: ['Person', 'Address'], run: personRecognizer },
  { name: 'person-frame', kinds: ['Person'], run: personFrameRecognizer },
  { name: 'spelled', kinds: ['Person', 'Email', 'Address', 'ZipCode'], run: spelledRecognizer },
  { name: 'organization', kinds: ['Organization'], run: organizationRecognizer },
  { name: 'url', kinds: ['URL'], run: urlRecognizer },
  { name: 'address', kinds: ['Address'], run: addressRecognizer },
  { name: 'intersection', kinds: ['Address'], run: intersectionRecognizer },
  { name: 'address-box', kinds: ['Address'], run: boxAddressRecognizer },
  { name: 'tagger', kinds: ['Person', 'Address'], run: taggerRecognizer },
  { name: 'digit-net', kinds: ['USSocialSecurityNumber', 'CreditCardNumber'], run: digitNetRecognizer },
];

const PRIORITY = new Map<EntityKind, number>(ENTITY_KINDS.map((k, i) => [k, i]));

/** Which of two detections names what they both cover: higher confidence, then kind priority, then longer. */
const labelOrder = (a: Detection, b: Detection) =>
  b.confidence - a.confidence || PRIORITY.get(a.kind)! - PRIORITY.get(b.kind)! || b.end - b.start - (a.end - a.start) || a.start - b.start;

const HAS_CONTENT = /[\p{L}\p{N}]/u;

/** The part [start, end) of a detection, trimmed of white space; undefined when no letter or digit is left. */
function piece(d: Detection, start: number, end: number, doc?: Doc): Detection | undefined {
  const text = doc ? doc.text : undefined;
  if (text !== undefined) {
    while (start < end && /\s/.test(text[start])) start++;
    while (end > start && /\s/.test(text[end - 1])) end--;
  }
  if (end <= start) return undefined;
  if (start === d.start && end === d.end) return d;
  const slice = text !== undefined ? text.slice(start, end) : d.text.slice(Math.max(0, start - d.start), Math.max(0, end - d.start));
  if (text !== undefined && !HAS_CONTENT.test(slice)) return undefined;
  const out: Detection = { ...d, start, end, text: slice };
  if (doc) {
    const range = wordsOverlapping(doc, start, end);
    if (range) Object.assign(out, range);
  }
  return out;
}

/** Overlapping detections of one kind become one: their union, under the most confident of them. */
function mergeSameKind(detections: Detection[], doc?: Doc): Detection[] {
  const out: Detection[] = [];
  // The latest detection of each kind, and where it stands in `out`.
  const open = new Map<EntityKind, { last: Detection; at: number }>();
  for (const d of [...detections].sort((a, b) => a.start - b.start)) {
    const { last, at } = open.get(d.kind) ?? { last: undefined, at: -1 };
    if (last && d.start < last.end) {
      const best = d.confidence > last.confidence ? d : last;
      // Still a floor only when both were: a recognizer's own finding names what the net also saw.
      const merged: Detection = { ...best, start: last.start, end: Math.max(last.end, d.end), floor: last.floor && d.floor ? true : undefined };
      if (last.wordStart !== undefined || d.wordStart !== undefined) {
        merged.wordStart = Math.min(last.wordStart ?? Infinity, d.wordStart ?? Infinity);
        merged.wordEnd = Math.max(last.wordEnd ?? -Infinity, d.wordEnd ?? -Infinity);
      }
      merged.text = doc ? doc.text.slice(merged.start, merged.end) : merged.end === last.end ? last.text : merged.text;
      out[at] = merged;
      open.set(d.kind, { last: merged, at });
    } else {
      open.set(d.kind, { last: d, at: out.length });
      out.push(d);
    }
  }
  return out;
}

/**
 * One cluster of overlapping detections shared out: the cluster's boundaries cut it into elementary segments;
 * detections in label order take the segments still free (found by union-find, so each is taken once), and
 * consecutive segments of one detection become one piece of it.
 */
function shareOut(cluster: Detection[], doc?: Doc): Detection[] {
  const points = [...new Set(cluster.flatMap((d) => [d.start, d.end]))].sort((a, b) => a - b);
  const index = new Map(points.map((p, k) => [p, k]));
  const segments = points.length - 1;
  const owner = new Array<Detection | undefined>(segments);
  const next = Array.from({ length: points.length }, (_, k) => k);
  const free = (k: number): number => {
    let root = k;
    while (next[root] !== root) root = next[root];
    while (next[k] !== root) {
      const up = next[k];
      next[k] = root;
      k = up;
    }
    return root;
  };
  for (const d of [...cluster].sort(labelOrder)) {
    const last = index.get(d.end)!;
    for (let k = free(index.get(d.start)!); k < last; k = free(k + 1)) {
      owner[k] = d;
      next[k] = k + 1;
    }
  }
  // A floor (the digit net) that lost part of its run names nothing: what is left of it goes to the detection
  // beside it (coverage unchanged; no fragment such as "20|" around an IP address reported as a card).
  const owned = new Map<Detection, number>();
  for (const d of owner) if (d) owned.set(d, (owned.get(d) ?? 0) + 1);
  const partial = new Set<Detection>();
  for (const [d, count] of owned) if (d.floor && count < index.get(d.end)! - index.get(d.start)!) partial.add(d);
  const named = (k: number) => owner[k] !== undefined && !partial.has(owner[k]!);
  for (let k = 1; k < segments; k++) if (!named(k) && named(k - 1)) owner[k] = owner[k - 1];
  for (let k = segments - 2; k >= 0; k--) if (!named(k) && named(k + 1)) owner[k] = owner[k + 1];
  const out: Detection[] = [];
  for (let k = 0; k < segments; ) {
    const d = owner[k];
    let e = k + 1;
    while (e < segments && owner[e] === d) e++;
    const p = d && piece(d, points[k], points[e], doc);
    if (p) out.push(p);
    k = e;
  }
  return out;
}

/**
 * Overlapping detections share out what they cover: every character goes to the best detection covering it
 * (labelOrder), so a detection that loses an overlap keeps what only it covers. Coverage is the union of all.
 * Work is per cluster of overlapping detections (sorted once), so it stays near linear.
 */
export function resolveOverlaps(detections: Detection[], doc?: Doc): Detection[] {
  const sorted = mergeSameKind(detections.filter((d) => d.end > d.start), doc).sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Detection[] = [];
  let i = 0;
  while (i < sorted.length) {
    // One cluster: detections chained by overlap.
    let j = i + 1;
    let reach = sorted[i].end;
    while (j < sorted.length && sorted[j].start < reach) reach = Math.max(reach, sorted[j++].end);
    if (j === i + 1) {
      kept.push(sorted[i]);
      i = j;
      continue;
    }
    kept.push(...shareOut(sorted.slice(i, j), doc));
    i = j;
  }
  return kept.sort((a, b) => a.start - b.start);
}

/** What stands for a recognizer that threw: the whole text, under the first of its kinds that is wanted. */
function failClosed(doc: Doc, kind: EntityKind, recognizer: string): Detection {
  const d: Detection = { kind, text: doc.text, start: 0, end: doc.text.length, confidence: 1, recognizer: `${recognizer}:failed`, floor: true };
  if (doc.words.length > 0) {
    d.wordStart = 0;
    d.wordEnd = doc.words.length;
  }
  return d;
}

/**
 * Every detection of the wanted kinds, overlaps not resolved: each recognizer runs guarded, and one that throws
 * fails closed. Detections below the confidence floor are dropped unless they are floors themselves. A "name"
 * inside an address is named Address (personInAddress). The tagger's runs give up what another kind's rule
 * detection covers (yieldToRules).
 */
export function detectAll(doc: Doc, options: DetectOptions = doc.options): Detection[] {
  // No kinds named: every default kind (optional kinds such as Organization only when named).
  const wanted = new Set(options.kinds ?? DEFAULT_KINDS);
  const min = options.minConfidence ?? 0;
  const all: Detection[] = [];
  for (const r of RECOGNIZERS) {
    const kinds = r.kinds.filter((k) => wanted.has(k));
    if (kinds.length === 0) continue;
    let found: Detection[];
    try {
      found = r.run(doc);
    } catch {
      found = [failClosed(doc, kinds[0], r.name)];
    }
    for (const d of found) if (wanted.has(d.kind) && (d.floor || d.confidence >= min)) all.push(d);
  }
  const found = namesBeside(doc, brandsNotNames(doc, yieldToRules(doc, personInAddress(doc, all, wanted), wanted)));
  return wanted.has('Address') ? streetsRepeated(doc, found) : found;
}

function run(doc: Doc, options: DetectOptions): Detection[] {
  return resolveOverlaps(detectAll(doc, options), doc);
}

/** Detections in an already built doc (written or spoken), word indices kept. */
export function detectDoc(doc: Doc, options: DetectOptions = doc.options): Detection[] {
  return run(doc, options);
}

/** Detections in written text; offsets index `text`. */
export function detectText(text: string, options: DetectOptions = {}): Detection[] {
  const doc = docFromText(text, options);
  return run(doc, options).map((d) => {
    const { wordStart: _s, wordEnd: _e, ...rest } = d;
    return rest;
  });
}

/** Detections in ASR words; offsets index `words.join(' ')`, wordStart/wordEnd index `words`. */
export function detectWords(words: readonly string[], options: DetectOptions = {}): Detection[] {
  return run(docFromWords(words, options), options);
}
