// Issue #32, the number kinds: how callers really say a card's code, an expiry, a routing number, a ZIP or postcode,
// a phone, each written and said (ASR form: lower case, no punctuation, numbers as words), with the label the cue
// names; and the numbers beside them that are no one's (amounts, order and tracking numbers, date ranges, times)
// left alone. All numbers here are made up.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ALL_NUMBERS, expectKind, expectNone, expectUnmasked, said, written } from '../helpers/detections.js';

test('a card code after the ways callers name it: "the three digits (on the back)", cvc, cid, "c v v", "c i d"', () => {
  expectKind(
    [
      ['Okay, the three digits on the back are 742.', 'CVV', '742'],
      ['It is an Amex, and the CID on the front is 5120.', 'CVV', '5120'],
      ['The CVC is 318, I think.', 'CVV', '318'],
      ['The three digit code on the back of my card, it is 861.', 'CVV', '861'],
    ],
    written,
  );
  expectKind(
    [
      ['okay the three digits on the back are seven four two', 'CVV', 'seven four two'],
      ['its an amex and the c i d is five one two oh', 'CVV', 'five one two oh'],
      ['the c v c is three one eight i think', 'CVV', 'three one eight'],
      ['the three digit code on the back of my card it is eight six one', 'CVV', 'eight six one'],
    ],
    said,
  );
});

test('a card code said twice to check it is two codes, each masked', () => {
  expectKind(
    [
      ['Security code 462, 4-6-2.', 'CVV', '462'],
      ['Security code 462, 4-6-2.', 'CVV', '4-6-2'],
    ],
    written,
  );
  expectKind([['security code four six two four six two', 'CVV', 'four six two']], said);
  assert.equal(said('security code four six two four six two').filter((d) => d.kind === 'CVV').length, 2);
});

test('the amount beside a card code stays readable', () => {
  expectUnmasked([['The code on the back is 742 and the bill was 58 dollars.', ['58']]], written);
  expectUnmasked([['the code on the back is seven four two and the bill was fifty eight dollars', ['fifty eight']]], said);
});

test('a ZIP said twice ("60614, 6-0-6-1-4") is two ZIPs, not a phone number', () => {
  const w = "Zip's 60614, 6-0-6-1-4, Lincoln Park.";
  expectKind(
    [
      [w, 'ZipCode', '60614'],
      [w, 'ZipCode', '6-0-6-1-4'],
    ],
    written,
  );
  expectNone([[w, ['PhoneNumber']]], written);
  const a = 'zips six oh six one four six oh six one four lincoln park';
  expectKind([[a, 'ZipCode', 'six oh six one four']], said);
  expectNone([[a, ['PhoneNumber']]], said);
});

test('postcodes after a cue: UK (any letters), Canadian, 4-digit Australian, written and said', () => {
  expectKind(
    [
      ['My postcode is LS6 2VK.', 'ZipCode', 'LS6 2VK'],
      ['Billing zip is eh4 7mx.', 'ZipCode', 'eh4 7mx'],
      ['Postal code M5V 3L9, in Toronto.', 'ZipCode', 'M5V 3L9'],
      ['Our postcode is 3121.', 'ZipCode', '3121'],
    ],
    written,
  );
  expectKind(
    [
      ['my postcode is l s six two v k', 'ZipCode', 'l s six two v k'],
      ['our postcode is three one two one', 'ZipCode', 'three one two one'],
    ],
    said,
  );
});

test('a letters-and-digits code with no postal cue is no postcode', () => {
  expectNone([['The model is AB12 3CD, the grey one.', ['ZipCode']]], written);
});

test('a routing number after its cue, however far back ("on the bottom of the check"), is ABA, not an SSN', () => {
  expectKind(
    [
      ['The routing number on the bottom of my check is 311074521.', 'ABARoutingNumber', '311074521'],
      ['Transit number 264081331.', 'ABARoutingNumber', '264081331'],
      ['ABA is 073000189.', 'ABARoutingNumber', '073000189'],
      ['The first nine digits on my check: 264081331', 'ABARoutingNumber', '264081331'],
    ],
    written,
  );
  expectKind(
    [
      ['the routing number printed on the bottom of the check is three one one oh seven four five two one', 'ABARoutingNumber', 'three one one oh seven four five two one'],
      ['the routing number is oh seven three triple oh one eight nine', 'ABARoutingNumber', 'oh seven three triple oh one eight nine'],
      ['the first nine on the check are two six four oh eight one three three one', 'ABARoutingNumber', 'two six four oh eight one three three one'],
    ],
    said,
  );
  expectNone([['The routing number on the bottom of my check is 311074521.', ['USSocialSecurityNumber']]], written);
});

test('an expiry said as "the third month of 2029", then again as digits ("03/29", "oh three twenty nine")', () => {
  const w = 'The expiry is the third month of 2029, so, 03/29.';
  expectKind(
    [
      [w, 'ExpirationDate', 'third month of 2029'],
      [w, 'ExpirationDate', '03/29'],
      ['My Visa is good until 11/27.', 'ExpirationDate', '11/27'],
    ],
    written,
  );
  const a = 'the expiry is the third month of twenty twenty nine so oh three twenty nine';
  expectKind(
    [
      [a, 'ExpirationDate', 'third month of twenty twenty nine'],
      [a, 'ExpirationDate', 'oh three twenty nine'],
      ['it expires may of twenty eight', 'ExpirationDate', 'may of twenty eight'],
    ],
    said,
  );
});

test("an offer's end date is no card expiry; a number after an expiry that is no card date stays readable", () => {
  expectNone(
    [
      ['The promo price is good until March 31, then it goes up.', ['ExpirationDate']],
      ['My old card expired, so the payment bounced twice.', ['ExpirationDate']],
    ],
    written,
  );
  expectUnmasked([['Expiration 04/28, and my bill is 1250 a month.', ['1250']]], written);
  expectUnmasked([['expiration oh four twenty eight the bill was twelve fifty', ['twelve fifty']]], said);
});

test('a number the caller calls theirs ("my number\'s ...") is a phone, whatever its length', () => {
  expectKind([["My number's 718 220 461, double-check it.", 'PhoneNumber', '718 220 461']], written);
  expectKind([['my numbers seven one eight double two oh four six one double check it', 'PhoneNumber', 'seven one eight double two oh four six one']], said);
  expectNone([['my numbers seven one eight double two oh four six one double check it', ['USSocialSecurityNumber']]], said);
});

test('a second phone named by its label only ("my cell is ..., home is ...") is a phone too', () => {
  expectKind(
    [
      ['My cell is 415-555-0139, home is 555-2817.', 'PhoneNumber', '555-2817'],
      ['Cell 415 555 0139, and work is 555 2817.', 'PhoneNumber', '555 2817'],
    ],
    written,
  );
  expectKind([['my cell is four one five five five five oh one three nine home is five five five twenty eight seventeen', 'PhoneNumber', 'five five five twenty eight seventeen']], said);
});

test('times and counts beside a phone stay readable', () => {
  expectUnmasked([['I called 3 times at 10:30 and waited 45 minutes, my cell is 415-555-0139.', ['3 times', '10:30', '45']]], written);
  expectNone([['i called three times at ten thirty and waited forty five minutes', ALL_NUMBERS]], said);
});

test('a tracking or order number is no phone, SSN or card, written or said (its letters and digits glued or apart)', () => {
  expectNone(
    [
      ['The tracking number is 1Z 4F8 W27 03 9184 5526 and it shows delivered.', ALL_NUMBERS],
      ['My order number is 482113907, it never came.', ALL_NUMBERS],
      ['Invoice number 4471 2083 9915 02, dated May 3rd.', ALL_NUMBERS],
    ],
    written,
  );
  expectNone(
    [
      ['the tracking number is one z four f eight w two seven oh three nine one eight four five five two six and it shows delivered', ALL_NUMBERS],
      ['my order number is four eight two one one three nine oh seven it never came', ALL_NUMBERS],
    ],
    said,
  );
});

test('a personal number cue between a reference number and the digits keeps them personal (redact more)', () => {
  expectKind(
    [
      ['The case number was 5512, and my social is 514382290.', 'USSocialSecurityNumber', '514382290'],
      ['The order number, hold on, my card is 4716 2093 8847 1150.', 'CreditCardNumber', '4716 2093 8847 1150'],
    ],
    written,
  );
  expectKind([['the case number was fifty five twelve and my social is five one four three eight two two nine oh', 'USSocialSecurityNumber', 'five one four three eight two two nine oh']], said);
  // an "id number" may well be an SSN said as one: still masked
  expectKind([['ID number 514382290.', 'USSocialSecurityNumber', '514382290']], written);
});

test('a date range after "account" ("period oh two oh one to oh two twenty eight") is no bank account', () => {
  expectNone([['the account summary period is oh two oh one to oh two twenty eight and the total is off', ['USBankAccountNumber']]], said);
  expectKind([['my account number is four four five one two', 'USBankAccountNumber', 'four four five one two']], said);
});

test('a cue said right after the number names it ("..., no wait, that\'s my license", "is my cell", "that\'s my zip")', () => {
  expectKind(
    [
      ["The reference is K482-9931... no wait, that's my license.", 'USDriversLicenseNumber', 'K482-9931'],
      ["60614, that's my zip.", 'ZipCode', '60614'],
    ],
    written,
  );
  expectKind(
    [
      ['the reference is k four eight two nine nine three one no wait thats my license', 'USDriversLicenseNumber', 'k four eight two nine nine three one'],
      ['five five five two eight one seven is my cell', 'PhoneNumber', 'five five five two eight one seven'],
      ['four six two thats the security code', 'CVV', 'four six two'],
    ],
    said,
  );
  expectNone([['I paid 40 dollars, that is my limit.', ALL_NUMBERS]], written);
});
