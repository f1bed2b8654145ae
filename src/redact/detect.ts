// Sensitive-data detection on written text (post-call records, text input) and on ASR words (lower case, no
// punctuation, spoken numbers), with every detection mapped back to character offsets and, for words, word
// indices. Overlaps are resolved by confidence, then by kind priority (ENTITY_KINDS order), then by length.
import { ENTITY_KINDS, type EntityKind } from './entityKinds.js';
import { abaRoutingRecognizer } from './recognizers/abaRouting.js';
import { addressRecognizer } from './recognizers/address.js';
import { bankAccountRecognizer } from './recognizers/bankAccount.js';
import { creditCardRecognizer } from './recognizers/creditCard.js';
import { cvvRecognizer } from './recognizers/cvv.js';
import { dateOfBirthRecognizer } from './recognizers/dateOfBirth.js';
import { docFromText, docFromWords, type Doc, type Recognizer } from './recognizers/doc.js';
import { driversLicenseRecognizer } from './recognizers/driversLicense.js';
import { emailRecognizer } from './recognizers/email.js';
import { expirationDateRecognizer } from './recognizers/expirationDate.js';
import { ipAddressRecognizer } from './recognizers/ipAddress.js';
import { passportRecognizer } from './recognizers/passport.js';
import { personRecognizer } from './recognizers/person.js';
import { phoneRecognizer } from './recognizers/phone.js';
import { ssnRecognizer } from './recognizers/ssn.js';
import { zipCodeRecognizer } from './recognizers/zipCode.js';
import type { Detection, DetectOptions } from './types.js';

export type { Detection, DetectOptions } from './types.js';

/** Each recognizer with the kinds it may emit. */
export const RECOGNIZERS: { name: string; kinds: EntityKind[]; run: Recognizer }[] = [
  { name: 'ssn', kinds: ['USSocialSecurityNumber'], run: ssnRecognizer },
  { name: 'credit-card', kinds: ['CreditCardNumber', 'USBankAccountNumber'], run: creditCardRecognizer },
  { name: 'phone', kinds: ['PhoneNumber'], run: phoneRecognizer },
  { name: 'cvv', kinds: ['CVV'], run: cvvRecognizer },
  { name: 'expiration-date', kinds: ['ExpirationDate'], run: expirationDateRecognizer },
  { name: 'bank-account', kinds: ['USBankAccountNumber'], run: bankAccountRecognizer },
  { name: 'aba-routing', kinds: ['ABARoutingNumber'], run: abaRoutingRecognizer },
  { name: 'date-of-birth', kinds: ['DateOfBirth'], run: dateOfBirthRecognizer },
  { name: 'drivers-license', kinds: ['USDriversLicenseNumber'], run: driversLicenseRecognizer },
  { name: 'passport', kinds: ['USPassportNumber'], run: passportRecognizer },
  { name: 'ip-address', kinds: ['IPAddress'], run: ipAddressRecognizer },
  { name: 'zip-code', kinds: ['ZipCode'], run: zipCodeRecognizer },
  { name: 'email', kinds: ['Email'], run: emailRecognizer },
  { name: 'person', kinds: ['Person'], run: personRecognizer },
  { name: 'address', kinds: ['Address'], run: addressRecognizer },
];

const PRIORITY = new Map<EntityKind, number>(ENTITY_KINDS.map((k, i) => [k, i]));

/** Keep the best of overlapping detections: higher confidence, then kind priority, then longer. */
export function resolveOverlaps(detections: Detection[]): Detection[] {
  const sorted = [...detections].sort(
    (a, b) => b.confidence - a.confidence || PRIORITY.get(a.kind)! - PRIORITY.get(b.kind)! || b.end - b.start - (a.end - a.start) || a.start - b.start,
  );
  const kept: Detection[] = [];
  for (const d of sorted) {
    if (d.end <= d.start) continue;
    if (kept.some((k) => k.start < d.end && d.start < k.end)) continue;
    kept.push(d);
  }
  return kept.sort((a, b) => a.start - b.start);
}

function run(doc: Doc, options: DetectOptions): Detection[] {
  const wanted = options.kinds ? new Set(options.kinds) : undefined;
  const all: Detection[] = [];
  for (const r of RECOGNIZERS) {
    if (wanted && !r.kinds.some((k) => wanted.has(k))) continue;
    for (const d of r.run(doc)) if (!wanted || wanted.has(d.kind)) all.push(d);
  }
  const min = options.minConfidence ?? 0;
  return resolveOverlaps(all.filter((d) => d.confidence >= min));
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
