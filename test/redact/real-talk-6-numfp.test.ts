// Issue #32, round 6, numbers that are no one's on turns without personal data: a subnet mask named so, a second
// version after a first ("firmware ..., the latest is ..."), a drug's NDC, a call's reference number ("for this
// call"), a dispute reference or an itinerary number of a card's length that fails Luhn, a phone's IMEI, a policy's
// or a claim's code of letters and 10 digits, a year after "since". Each beside the same shape carrying real data,
// still masked. Written and said (ASR form). Values made up.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ALL_NUMBERS, expectKind, expectNone, expectUnmasked, said, shown, written } from '../helpers/detections.js';

/** Every character of `value` is masked, under whatever kind. */
function expectMasked(cases: [string, string][], detect: typeof written): void {
  for (const [text, value] of cases) {
    const at = text.indexOf(value);
    assert.ok(at >= 0, `${value} not in ${text}`);
    const found = detect(text);
    for (let i = at; i < at + value.length; i++) {
      if (text[i] !== ' ') assert.ok(found.some((d) => d.start <= i && i < d.end), `${text}: "${value}" not all masked, got ${shown(found)}`);
    }
  }
}

const CARD_SSN = ['CreditCardNumber', 'USSocialSecurityNumber'];

test('a subnet mask named so is no address; an IP beside it, or the mask said as an IP, is', () => {
  expectUnmasked(
    [
      ['Port 22 is open, and the subnet mask is 255.255.240.0.', ['255.255.240.0']],
      ['Netmask 255.255.255.128, gateway on the sticker.', ['255.255.255.128']],
    ],
    written,
  );
  expectUnmasked([['port twenty two is open and the subnet mask is two fifty five dot two fifty five dot two forty dot zero', ['two fifty five dot two fifty five dot two forty dot zero']]], said);
  expectKind(
    [
      ['The subnet mask is 255.255.240.0 and my IP is 172.16.4.31.', 'IPAddress', '172.16.4.31'],
      ['My IP is 10.0.0.255.', 'IPAddress', '10.0.0.255'],
      ['My IP is 255.255.240.0.', 'IPAddress', '255.255.240.0'],
      // not a mask's shape (bits not contiguous, or 255 not first): an address after all
      ['The subnet mask is 255.255.240.9.', 'IPAddress', '255.255.240.9'],
      ['The subnet mask is 172.16.4.31.', 'IPAddress', '172.16.4.31'],
    ],
    written,
  );
  expectKind(
    [
      ['the subnet mask is two fifty five dot two fifty five dot two forty dot zero and my i p is one seventy two dot sixteen dot four dot thirty one', 'IPAddress', 'one seventy two dot sixteen dot four dot thirty one'],
      ['the subnet mask is ten dot zero dot zero dot five', 'IPAddress', 'ten dot zero dot zero dot five'],
    ],
    said,
  );
});

test('a second version after a first ("the newest is ...") is no address; an address named after a version is', () => {
  expectUnmasked([["You're on firmware 5.2.1.7, the newest is 5.3.0.1, let's update.", ['5.2.1.7', '5.3.0.1']]], written);
  expectKind(
    [
      ['Firmware 5.2.1.7, the newest IP is 5.3.0.1.', 'IPAddress', '5.3.0.1'],
      ['Firmware 5.2.1.7, the new server is 6.2.8.8.', 'IPAddress', '6.2.8.8'],
      ['Firmware 5.2.1.7, and my router is at 5.2.0.1.', 'IPAddress', '5.2.0.1'],
      // a major number far from the version's: another thing
      ['Firmware 5.2.1.7, the latest is 73.22.118.4.', 'IPAddress', '73.22.118.4'],
    ],
    written,
  );
  expectKind([['firmware five point two point one point seven the new server is six dot two dot eight dot eight', 'IPAddress', 'six dot two dot eight dot eight']], said);
});

test("a drug's NDC is no phone; a phone beside it, or named after it, is", () => {
  expectNone([['The NDC on the bottle is 0781-5062-31, and the lot is KX2290.', ALL_NUMBERS]], written);
  expectNone([['the n d c on the bottle is zero seven eight one five zero six two three one and the lot is k x twenty two ninety', ALL_NUMBERS]], said);
  expectKind(
    [
      ['The NDC on the bottle is 0781-5062-31, my cell is 415-555-0176.', 'PhoneNumber', '415-555-0176'],
      ["The NDC is 415-555-0176, that's my cell.", 'PhoneNumber', '415-555-0176'],
      ['My phone is 0781 506 2319.', 'PhoneNumber', '0781 506 2319'],
    ],
    written,
  );
  expectKind([['the n d c is four one five five five five oh one seven six thats my cell', 'PhoneNumber', 'four one five five five five oh one seven six']], said);
  // letters of a name that end "n d c" name no NDC: masked still (as the name read on)
  expectMasked([['my name is a n d c four one five five five five oh one seven six', 'four one five five five five oh one seven six']], said);
  // an NDC is 10 digits: nine after "the n d c is" keep their SSN reading
  expectKind([['the n d c is two one four six six oh three one eight', 'USSocialSecurityNumber', 'two one four six six oh three one eight']], said);
});

test('a reference number "for this call" is no phone; a phone named so, or an SSN\'s length, is still masked', () => {
  expectNone([['The reference number for this call is 20251014-0932, in case you get cut off.', ALL_NUMBERS]], written);
  expectNone([['the reference number for this call is two oh two five one oh one four oh nine three two in case you get cut off', ALL_NUMBERS]], said);
  expectKind(
    [
      ['The reference number for this call is 415-555-0176, call me back.', 'PhoneNumber', '415-555-0176'],
      ['The reference number, and for this call my phone is 415-555-0176.', 'PhoneNumber', '415-555-0176'],
      ['The reference number for this call is 214660318.', 'USSocialSecurityNumber', '214660318'],
    ],
    written,
  );
  expectKind([['the reference number for this call is two one four six six oh three one eight', 'USSocialSecurityNumber', 'two one four six six oh three one eight']], said);
});

test('a dispute reference or an itinerary number of a card\'s length that fails Luhn is no card; a Luhn-valid one, or one where a card is talked of, is', () => {
  expectNone(
    [
      ['Your dispute reference is 5302 8817 4406 1193, a letter follows in 10 days.', CARD_SSN],
      ['Your itinerary number is 6619 2045 7738 0214, keep it handy.', CARD_SSN],
    ],
    written,
  );
  expectNone(
    [
      ['your dispute reference is five three oh two eight eight one seven four four oh six one one nine three a letter follows in ten days', CARD_SSN],
      ['your itinerary number is sixty six nineteen twenty forty five seventy seven thirty eight oh two fourteen keep it handy', CARD_SSN],
    ],
    said,
  );
  expectKind(
    [
      ['My card is 5302 8817 4406 1193, the reference is on the letter.', 'CreditCardNumber', '5302 8817 4406 1193'],
      ['The reference is 5302 8817 4406 1193 on my Visa.', 'CreditCardNumber', '5302 8817 4406 1193'],
      ['The dispute reference is 4111 1111 1111 1111.', 'CreditCardNumber', '4111 1111 1111 1111'],
      ['Your itinerary number is 6619 2045 7738 0214, and my card is 4111 1111 1111 1111.', 'CreditCardNumber', '4111 1111 1111 1111'],
      ['The reference is 214660318.', 'USSocialSecurityNumber', '214660318'],
      // a bare "reference" before it, or "my reference": a card may be given so
      ['Reference 5302 8817 4406 1193 thanks.', 'CreditCardNumber', '5302 8817 4406 1193'],
      ['My reference is 5302 8817 4406 1193.', 'CreditCardNumber', '5302 8817 4406 1193'],
    ],
    written,
  );
  expectKind(
    [
      ['my card reference is five three oh two eight eight one seven four four oh six one one nine three', 'CreditCardNumber', 'five three oh two eight eight one seven four four oh six one one nine three'],
      ['the reference is five three oh two eight eight one seven four four oh six one one nine three on my visa', 'CreditCardNumber', 'five three oh two eight eight one seven four four oh six one one nine three'],
    ],
    said,
  );
});

test("a phone's IMEI (15 digits, Luhn) named so is no card; an Amex's prefix, a card in the turn, a card's cue keep it one", () => {
  expectNone([['The IMEI is 357164018229537, do you need all of it?', CARD_SSN]], written);
  expectNone([['the i m e i is three five seven one six four oh one eight two two nine five three seven do you need all of it', CARD_SSN]], said);
  expectKind(
    [
      ['The IMEI is 357164018229537, and my card is 4111 1111 1111 1111.', 'CreditCardNumber', '357164018229537'],
      ['The IMEI is 378282246310005.', 'CreditCardNumber', '378282246310005'],
      ['The IMEI is 4111111111111111.', 'CreditCardNumber', '4111111111111111'],
      ['My card number is 357164018229537.', 'CreditCardNumber', '357164018229537'],
    ],
    written,
  );
  expectKind([['the i m e i is three seven eight two eight two two four six three one oh oh oh five', 'CreditCardNumber', 'three seven eight two eight two two four six three one oh oh oh five']], said);
  expectMasked([['my name is j i m e i three five seven one six four oh one eight two two nine five three seven', 'three five seven one six four oh one eight two two nine five three seven']], said);
  // nine digits after "i m e i" said out: no IMEI's length, the SSN reading stays
  expectKind([['the i m e i is two one four six six oh three one eight', 'USSocialSecurityNumber', 'two one four six six oh three one eight']], said);
});

test("a policy's or a claim's code of letters and 10-12 digits stays masked (its digits may hold an SSN); nine digits, 3-2-4, or a personal cue too", () => {
  // the letter-code drop was taken out (review of round 6): "XYZ-0780-5112-01" may be an SSN with a prefix and a suffix
  expectMasked(
    [
      ['The policy number is HX-7731-0458-26, and it renews in March.', '7731-0458-26'],
      ["The claim number's CLM-2025-771203, the adjuster has it.", '2025-771203'],
    ],
    written,
  );
  expectMasked(
    [
      ['the policy number is h x seven seven three one oh four five eight two six and it renews in march', 'seven seven three one oh four five eight two six'],
      ['the claim numbers c l m twenty twenty five seven seven one two oh three the adjuster has it', 'twenty twenty five seven seven one two oh three'],
    ],
    said,
  );
  expectKind(
    [
      ['The policy number is HX-214660318.', 'USSocialSecurityNumber', '214660318'],
      ['The policy number is HX-214-66-0318-2.', 'USSocialSecurityNumber', '214-66-0318-2'],
      ['My social is HX-7731-0458-26.', 'USSocialSecurityNumber', '7731-0458-26'],
      ['The policy number is 7731-0458-26.', 'USSocialSecurityNumber', '7731-0458-26'],
      ['The policy number is HX-7731-0458-26, and my social is 214-66-0318.', 'USSocialSecurityNumber', '214-66-0318'],
    ],
    written,
  );
  expectKind(
    [
      ['the policy number is h x two one four six six oh three one eight', 'USSocialSecurityNumber', 'two one four six six oh three one eight'],
      ['the policy number is h o two one four six six oh three one eight', 'USSocialSecurityNumber', 'o two one four six six oh three one eight'],
      ['my social is h x seven seven three one oh four five eight two six', 'USSocialSecurityNumber', 'seven seven three one oh four five eight two six'],
    ],
    said,
  );
});

test('a year after "since" is no account number; an account number said after it is', () => {
  expectNone([["I've had this checking account since 1982 and never paid a fee.", ALL_NUMBERS]], written);
  expectNone([['ive had this checking account since nineteen eighty two and never paid a fee', ALL_NUMBERS]], said);
  expectKind([['My account number is 1982.', 'USBankAccountNumber', '1982']], written);
  expectMasked([['My account number since 2019 is 4471 2290.', '4471 2290']], written);
  expectKind(
    [
      ['my account since nineteen eighty two is four four seven one two two nine oh', 'USBankAccountNumber', 'four four seven one two two nine oh'],
      ['my checking account number is since one nine eight two', 'USBankAccountNumber', 'one nine eight two'],
    ],
    said,
  );
});
