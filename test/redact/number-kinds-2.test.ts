// Issue #32, the number kinds and Email, second part: numbers said again or corrected, a cue said far back, a number
// said alone in answer to a question, a card's code "on the back", an expiry that "runs out", an email domain with
// spelled letters; and the numbers beside them that are no one's (serials, tracking codes, a warranty's end, a
// document's year) left alone. Written and said (ASR form). All values here are made up.
import { test } from 'node:test';
import { ALL_NUMBERS, expectKind, expectNone, expectUnmasked, said, written } from '../helpers/detections.js';

test('a ZIP said again to check it, or corrected, keeps the first saying\'s cue', () => {
  expectKind(
    [
      ['Billing zip is 60422, so 6-0-4-2-2.', 'ZipCode', '6-0-4-2-2'],
      ['My zip is 33109, I mean, 33190.', 'ZipCode', '33190'],
      ["Zip's 84011... no wait, sorry, the new one is 84015.", 'ZipCode', '84015'],
    ],
    written,
  );
  expectKind(
    [
      ['billing zip is six oh four two two so six zero four two two', 'ZipCode', 'six zero four two two'],
      ['my zip is three three one oh nine i mean three three one nine oh', 'ZipCode', 'three three one nine oh'],
      ['zips eight four oh one one no wait sorry the new one is eight four oh one five', 'ZipCode', 'eight four oh one five'],
    ],
    said,
  );
  // another number after the ZIP, of another length or with no correction between, is not taken for one
  expectUnmasked([['My zip is 33109 and I ordered 12 boxes.', ['12']]], written);
  expectUnmasked([['my zip is three three one oh nine and i ordered twelve boxes', ['twelve']]], said);
});

test('a ZIP said alone in answer, after "I\'m in", or written as ZIP+4', () => {
  expectKind(
    [
      ['Yep, 46203.', 'ZipCode', '46203'],
      ["We're in 59801, is the outage there too?", 'ZipCode', '59801'],
      ["That's 27514-2209.", 'ZipCode', '27514-2209'],
    ],
    written,
  );
  expectKind(
    [
      ['yep four six two oh three', 'ZipCode', 'four six two oh three'],
      ['were in five nine eight oh one is the outage there too', 'ZipCode', 'five nine eight oh one'],
    ],
    said,
  );
  // five digits that are an amount or a count, or in a longer sentence with no cue, stay readable
  expectUnmasked(
    [
      ['I paid 12500 for the whole kitchen and it still leaks.', ['12500']],
      ['In 2021 we had the same problem twice.', ['2021']],
    ],
    written,
  );
  expectUnmasked([['i paid twelve thousand five hundred for the whole kitchen and it still leaks', ['twelve thousand five hundred']]], said);
});

test('"social" heard further back still names the nine digits an SSN', () => {
  expectKind([['My social, let me grab my wallet, hold on, okay, 512 38 6604.', 'USSocialSecurityNumber', '512 38 6604']], written);
  expectKind(
    [['my social let me grab my wallet hold on the card is here okay five one two three eight six six oh four', 'USSocialSecurityNumber', 'five one two three eight six six oh four']],
    said,
  );
});

test('a card code "on the back", beside the card\'s expiry', () => {
  expectKind(
    [
      ['The number on the back is 583.', 'CVV', '583'],
      ['It is a Visa, expiring March 2029, and the back is 641.', 'CVV', '641'],
    ],
    written,
  );
  expectKind(
    [
      ['the number on the back is five eight three', 'CVV', 'five eight three'],
      ['its a visa expiring march twenty twenty nine and the back is six four one', 'CVV', 'six four one'],
    ],
    said,
  );
  expectUnmasked([['My back is killing me, I waited 45 minutes on hold.', ['45']]], written);
});

test('an expiry that "runs out" after a card, as MM/YYYY, and a card date and code said alone', () => {
  expectKind(
    [
      ['The Mastercard runs out 11/28, yeah, 11/28.', 'ExpirationDate', '11/28'],
      ["Expiration date's 04/2030, please update it.", 'ExpirationDate', '04/2030'],
      ['06/29. 852.', 'ExpirationDate', '06/29'],
      ['06/29. 852.', 'CVV', '852'],
    ],
    written,
  );
  expectKind(
    [
      ['the mastercard runs out eleven twenty eight', 'ExpirationDate', 'eleven twenty eight'],
      ['expiration dates oh four twenty thirty please update it', 'ExpirationDate', 'oh four twenty thirty'],
      ['six twenty nine eight five two', 'ExpirationDate', 'six twenty nine'],
      ['six twenty nine eight five two', 'CVV', 'eight five two'],
    ],
    said,
  );
  // a warranty's or a passport's end is no card's expiry
  expectNone(
    [
      ['The warranty ran out 05/26, so I guess I pay for the part.', ['ExpirationDate']],
      ['Passport is valid, it expires 2033.', ['ExpirationDate']],
    ],
    written,
  );
  expectNone(
    [
      ['the warranty ran out oh five twenty six so i guess i pay for the part', ['ExpirationDate']],
      ['passport is valid it expires twenty thirty three', ['ExpirationDate']],
    ],
    said,
  );
});

test('a full date with a two-digit year is a birth date, a count after a date is not', () => {
  expectKind([["It's March 14th, '79, and my name is on the lease.", 'DateOfBirth', "March 14th, '79"]], written);
  expectKind([['its march fourteenth seventy nine and my name is on the lease', 'DateOfBirth', 'march fourteenth seventy nine']], said);
  expectNone([['On March 14th 45 minutes is all I waited.', ['DateOfBirth']]], written);
  expectNone([['on march fourteenth forty five minutes is all i waited', ['DateOfBirth']]], said);
});

test('a passport-shaped id a few words after "passport"', () => {
  expectKind([['I put the passport on the reservation as K48120937, is that fine?', 'USPassportNumber', 'K48120937']], written);
  expectKind([['i put the passport on the reservation as k four eight one two oh nine three seven is that fine', 'USPassportNumber', 'k four eight one two oh nine three seven']], said);
});

test('a serial or a tracking code is no phone number', () => {
  expectNone(
    [
      ['The serial on the plate is SN 5820-3317-46, it is a Whirlpool.', ALL_NUMBERS],
      ['Tracking starts with 1Z, then 7K2 90B 04 6618 2275, stuck since Monday.', ALL_NUMBERS],
    ],
    written,
  );
  expectNone([['the serial on the plate is s n five eight two oh three three one seven four six its a whirlpool', ALL_NUMBERS]], said);
  // a phone after its own cue still is one
  expectKind([['The serial is SN 4410, and you can reach me at 503 555 0192.', 'PhoneNumber', '503 555 0192']], written);
});

test('spoken email domains with letters spelled, "and" in a label, newer endings', () => {
  expectKind(
    [
      ['its j okafor at pine valley dot n y dot us thats my work one', 'Email', 'j okafor at pine valley dot n y dot us'],
      ['send it to p dot la rue at north star dot c a', 'Email', 'p dot la rue at north star dot c a'],
      ['cc my lawyer t brandt at brandt l l p dot com', 'Email', 't brandt at brandt l l p dot com'],
      ['its hello at salt and cedar dot studio', 'Email', 'hello at salt and cedar dot studio'],
    ],
    said,
  );
  expectNone([['i was at home and work all day so call me back at five', ['Email']]], said);
});

test('a code read back alone at the start of a turn about paying; an amount there stays readable', () => {
  expectKind([["That's 386, thanks, I'll run the payment now.", 'CVV', '386']], written);
  expectKind([['thats three eight six thanks ill run the payment now', 'CVV', 'three eight six']], said);
  expectUnmasked(
    [
      ["That's $386, thanks, I'll run the payment now.", ['386']],
      ["It's 386 dollars, can you process the payment?", ['386']],
      ['The payment of 386 went through yesterday.', ['386']],
    ],
    written,
  );
  expectUnmasked([['thats three hundred eighty six thanks ill run the payment now', ['three hundred eighty six']]], said);
});

test('"valid to" names a card\'s date only when a card was said', () => {
  expectKind([['The debit card is valid to 02/29.', 'ExpirationDate', '02/29']], written);
  expectKind([['the debit card is valid to oh two twenty nine', 'ExpirationDate', 'oh two twenty nine']], said);
  expectNone([['The coupon is valid to 02/29, the man in the store said.', ['ExpirationDate']]], written);
});
