// Every entity kind, written and spoken (ASR: lower case, no punctuation, spoken numbers), including the awkward
// forms: digits split by "uh", "oh", "double five", spoken emails, names spelled letter by letter.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { detectText, detectWords } from '../../src/redact/detect.js';
import type { EntityKind } from '../../src/redact/entityKinds.js';
import type { Detection } from '../../src/redact/types.js';

const words = (s: string) => s.split(' ');

/** The detection of `kind` whose text is `text` (or that covers it), failing with what was found. */
function expectKind(found: Detection[], kind: EntityKind, text: string): Detection {
  const d = found.find((x) => x.kind === kind && (x.text === text || x.text.includes(text)));
  assert.ok(d, `expected ${kind} "${text}", got ${JSON.stringify(found.map((x) => [x.kind, x.text, x.confidence]))}`);
  return d;
}

/** [kind, input, expected covered text] */
const WRITTEN: [EntityKind, string, string][] = [
  ['USSocialSecurityNumber', 'SSN 123-45-6789', '123-45-6789'],
  ['USSocialSecurityNumber', 'His social security number is 531-21-7351', '531-21-7351'],
  ['CreditCardNumber', 'card 4111 1111 1111 1111 please', '4111 1111 1111 1111'],
  ['CreditCardNumber', 'My card 5474123209470398 expires soon', '5474123209470398'],
  ['PhoneNumber', 'call me at (555) 123-4567 tomorrow', '(555) 123-4567'],
  ['PhoneNumber', 'Desk: 986.291.2294x751', '986.291.2294x751'],
  ['PhoneNumber', 'fax +1-944-435-4352', '+1-944-435-4352'],
  ['Email', 'write to john.smith@example.com.', 'john.smith@example.com'],
  ['CVV', 'the CVV is 123', '123'],
  ['CVV', 'security code: 4821', '4821'],
  ['ExpirationDate', 'expiration 04/26', '04/26'],
  ['ExpirationDate', 'it expires March 2027', 'March 2027'],
  ['USBankAccountNumber', 'checking account number 00123456789', '00123456789'],
  ['ABARoutingNumber', 'routing number 021000021', '021000021'],
  ['DateOfBirth', 'She was born on 12/27/1986.', '12/27/1986'],
  ['DateOfBirth', 'date of birth: March 3, 1985', 'March 3, 1985'],
  ['USDriversLicenseNumber', "My driver's license number is D1234567", 'D1234567'],
  ['USPassportNumber', 'passport number 123456789', '123456789'],
  ['IPAddress', 'blocked at 58.74.121.78 again', '58.74.121.78'],
  ['IPAddress', 'v6 2001:db8:85a3::8a2e:370:7334 here', '2001:db8:85a3::8a2e:370:7334'],
  ['ZipCode', 'ZIP: 11164', '11164'],
  ['ZipCode', 'Springfield, IL 62704', '62704'],
  ['Person', 'My name is Patricia Jeknic but everyone calls me Lauren', 'Patricia Jeknic'],
  ['Person', 'Hi, this is Sarah speaking.', 'Sarah'],
  ['Person', "What's your last name? Krylova", 'Krylova'],
  ['Person', 'Bruce Alexander will be talking in the conference', 'Bruce Alexander'],
  ['Address', 'I live at 42 Oak Street, Springfield, IL 62704.', '42 Oak Street'],
  ['Address', 'The restaurant is at 1755 Nelson Mandela Drive', '1755 Nelson Mandela Drive'],
  ['Address', 'Filip lives on Nassaustraat 123 street.', 'Nassaustraat 123'],
];

const SPOKEN: [EntityKind, string, string][] = [
  ['USSocialSecurityNumber', 'my social is one two three four five six seven eight nine', 'one two three four five six seven eight nine'],
  ['USSocialSecurityNumber', 'ssn is one two three uh four five uh six seven eight nine', 'one two three uh four five uh six seven eight nine'],
  ['USSocialSecurityNumber', 'social security number five three one double one seven three five oh', 'five three one double one seven three five oh'],
  ['CreditCardNumber', 'card number four one one one one one one one one one one one one one one one', 'four one one one one one one one one one one one one one one one'],
  ['CreditCardNumber', 'my card is four five three two um two seven six six four four five seven seven oh two oh', 'four five three two um two seven six six four four five seven seven oh two oh'],
  ['CreditCardNumber', 'the card ending in four four three two', 'four four three two'],
  ['PhoneNumber', 'my number is five five five uh one two three double four five six', 'five five five uh one two three double four five six'],
  ['PhoneNumber', 'call me back at eight hundred five five five one two one two', 'eight hundred five five five one two one two'],
  ['PhoneNumber', 'my cell is five five five one two three four', 'five five five one two three four'],
  ['Email', 'email is john dot smith at example dot com', 'john dot smith at example dot com'],
  ['Email', 'it is j smith underscore seventy at gmail dot com', 'j smith underscore seventy at gmail dot com'],
  ['Email', 'send it to sarah connor at yahoo dot co dot uk please', 'sarah connor at yahoo dot co dot uk'],
  ['CVV', 'and the security code on the back is four two one', 'four two one'],
  ['CVV', 'cvv nine oh one', 'nine oh one'],
  ['ExpirationDate', 'expiration date oh four twenty six', 'oh four twenty six'],
  ['ExpirationDate', 'it expires march twenty twenty seven', 'march twenty twenty seven'],
  ['USBankAccountNumber', 'my checking account number is one two three four five six seven eight', 'one two three four five six seven eight'],
  ['ABARoutingNumber', 'my routing number is oh two one oh oh oh oh two one', 'oh two one oh oh oh oh two one'],
  ['DateOfBirth', 'date of birth march third nineteen eighty five', 'march third nineteen eighty five'],
  ['DateOfBirth', 'i was born on the fifth of june nineteen ninety', 'fifth of june nineteen ninety'],
  ['USDriversLicenseNumber', 'my drivers license number is d one two three four five six seven', 'd one two three four five six seven'],
  ['USPassportNumber', 'passport number a one two three four five six seven eight', 'a one two three four five six seven eight'],
  ['IPAddress', 'my ip is one nine two dot one six eight dot one dot one', 'one nine two dot one six eight dot one dot one'],
  ['ZipCode', 'zip code nine oh two one oh', 'nine oh two one oh'],
  ['ZipCode', 'springfield illinois six two seven oh four', 'six two seven oh four'],
  ['Person', 'my name is john smith', 'john smith'],
  ['Person', 'this is sarah speaking how can i help you', 'sarah'],
  ['Person', 'last name is kowalczyk spelled k o w a l c z y k', 'k o w a l c z y k'],
  ['Person', 'my last name is smith s m i t h', 's m i t h'],
  ['Person', 'my name is uh patricia jeknic and i am calling about my bill', 'patricia jeknic'],
  ['Address', 'i live at forty two oak street springfield', 'forty two oak street springfield'],
  ['Address', 'my address is one two three main street apartment four b', 'one two three main street apartment four'],
  ['Address', 'send it to seventeen fifty five nelson mandela drive', 'seventeen fifty five nelson mandela drive'],
];

describe('recognizers, written form', () => {
  for (const [kind, input, text] of WRITTEN) {
    test(`${kind}: ${input}`, () => {
      const d = expectKind(detectText(input), kind, text);
      assert.equal(input.slice(d.start, d.end), d.text);
      assert.ok(d.confidence > 0 && d.confidence <= 1);
    });
  }
});

describe('recognizers, spoken (ASR) form', () => {
  for (const [kind, input, text] of SPOKEN) {
    test(`${kind}: ${input}`, () => {
      const w = words(input);
      const d = expectKind(detectWords(w), kind, text);
      // char offsets index words.join(' '), word indices cover exactly the detection
      assert.equal(w.join(' ').slice(d.start, d.end), d.text);
      assert.equal(w.slice(d.wordStart, d.wordEnd).join(' '), d.text);
    });
  }
});
