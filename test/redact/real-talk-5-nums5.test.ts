// Issue #32, round 5, the number kinds and Email: a routing number named after it or beside a bank, a card's code
// after "the code is", a card's date and code read straight after its number, an expiry said "expiration's", a ZIP
// before its city, India's "PIN code", a license after its state, an SSN written 3-2-4 after "the card", the last
// four said alone, an IP said with "point", an email at "fast mail"; and what is no one's left alone (an invoice's
// number, a part no., a citation number, a version, a quote's or a coupon's end, the code on a receipt, amounts said
// one after another), each beside a real value that is still masked. Written and said (ASR form). Values made up.
import { test } from 'node:test';
import { ALL_NUMBERS, expectKind, expectNone, expectUnmasked, said, written } from '../helpers/detections.js';

test('a routing number named after it ("as the routing"), or valid beside a bank word', () => {
  expectKind(
    [
      ['Payroll has 312395759 as the routing, which is wrong.', 'ABARoutingNumber', '312395759'],
      ["It's 110786201, that's the Dallas one, not the Tulsa branch.", 'ABARoutingNumber', '110786201'],
    ],
    written,
  );
  expectKind(
    [
      ['payroll has three one two three nine five seven five nine as the routing which is wrong', 'ABARoutingNumber', 'three one two three nine five seven five nine'],
      ['its one ten seven eighty six two oh one thats the dallas one not the tulsa branch', 'ABARoutingNumber', 'one ten seven eighty six two oh one'],
    ],
    said,
  );
  // the same digits after "social" stay an SSN, bank or no bank
  expectKind([['My social is 110786201, the bank needs it.', 'USSocialSecurityNumber', '110786201']], written);
  expectKind([['my social is one ten seven eighty six two oh one the bank needs it', 'USSocialSecurityNumber', 'one ten seven eighty six two oh one']], said);
});

test('"the code is" after a card is its code; the code on the back of a receipt is no card\'s', () => {
  expectKind([["It's my brother's card, he said it's fine, the code is 915, and it's for the balance.", 'CVV', '915']], written);
  expectKind([['its my brothers card he said its fine the code is nine fifteen and its for the balance', 'CVV', 'nine fifteen']], said);
  expectUnmasked([['The code on the back of the gift receipt is 847, and the store number is 2290.', ['847']]], written);
  expectUnmasked([['the code on the back of the gift receipt is eight four seven and the store number is twenty two ninety', ['eight four seven']]], said);
  // the back of a card, a gift card too, is a card's code
  expectKind(
    [
      ['The code on the back of the card is 847.', 'CVV', '847'],
      ['The code on the back of my gift card is 847.', 'CVV', '847'],
    ],
    written,
  );
  expectKind([['the code on the back of the card is eight four seven', 'CVV', 'eight four seven']], said);
  // a card's code named after a thing's back is the card's
  expectKind([['The code on the back of the box is 4471, and my card code is 551.', 'CVV', '551']], written);
  expectKind([['the code on the back of the box is four four seven one and my card code is five five one', 'CVV', 'five five one']], said);
  // a gate's code after a card is over-masked at worst, a "zip code" is none
  expectNone([['I paid with my card, and the zip code is 60601.', ['CVV']]], written);
});

test("a card's date and code read straight after its number", () => {
  expectKind(
    [
      ['Yeah, quick, Visa 4452-0876-2602-5169, 3/30, 551, billing zip 10013.', 'ExpirationDate', '3/30'],
      ['Yeah, quick, Visa 4452-0876-2602-5169, 3/30, 551, billing zip 10013.', 'CVV', '551'],
    ],
    written,
  );
  const card = 'four four five two oh eight seven six two six oh two five one six nine';
  expectKind(
    [
      [`yeah quick visa ${card} three thirty five fifty one billing zip one double oh one three`, 'ExpirationDate', 'three thirty'],
      [`yeah quick visa ${card} three thirty five fifty one billing zip one double oh one three`, 'CVV', 'five fifty one'],
      [`visa ${card} oh three twenty nine five five one`, 'ExpirationDate', 'oh three twenty nine'],
    ],
    said,
  );
  // the card keeps its own digits
  expectKind([['Yeah, quick, Visa 4452-0876-2602-5169, 3/30, 551, billing zip 10013.', 'CreditCardNumber', '4452-0876-2602-5169,']], written);
  expectKind([[`yeah quick visa ${card} three thirty five fifty one billing zip`, 'CreditCardNumber', card]], said);
  // a run of a card's length is the card whole: no date taken from its end
  expectNone([['sure the new card is four two six five eight one zero zero two one six nine two eight three nine', ['ExpirationDate', 'CVV']]], said);
});

test('an expiry said "expiration\'s"; a quote\'s or a coupon\'s end is no card\'s', () => {
  expectKind([["Expiration's December 2026, security code 772.", 'ExpirationDate', 'December 2026']], written);
  expectKind([['expirations december twenty twenty six security code seven seventy two', 'ExpirationDate', 'december twenty twenty six']], said);
  expectNone(
    [
      ['And the payoff quote good through 11/30 was $214,906.', ALL_NUMBERS],
      ["The coupon says expires 12/31, 20% off, and the cashier wouldn't take it.", ALL_NUMBERS],
    ],
    written,
  );
  expectNone(
    [
      ['and the payoff quote good through eleven thirty was two hundred fourteen thousand nine hundred six dollars', ALL_NUMBERS],
      ['the coupon says expires twelve thirty one twenty percent off', ALL_NUMBERS],
    ],
    said,
  );
  // an offer said in another sentence leaves the expiry a card's
  expectKind([['Sorry about the promo. Expiration is 05/28.', 'ExpirationDate', '05/28']], written);
  expectKind([['sorry about the promo the expiration is oh five twenty eight', 'ExpirationDate', 'oh five twenty eight']], said);
  // a percentage is no part of the date before it
  expectKind([['It expires 12/31, 20% off.', 'ExpirationDate', '12/31']], written);
  // a card's "good through" is its date, a card said before it
  expectKind([['My card is good through 11/30.', 'ExpirationDate', '11/30']], written);
  expectKind([['the visa is good through eleven thirty', 'ExpirationDate', 'eleven thirty']], said);
});

test('a ZIP before its city, India\'s "PIN code"', () => {
  expectKind(
    [
      ["It's 02906, Providence.", 'ZipCode', '02906'],
      ['PIN code 560034, Bangalore.', 'ZipCode', '560034'],
      ['The postal code is 110001.', 'ZipCode', '110001'],
    ],
    written,
  );
  expectKind(
    [
      ['its oh two nine oh six providence', 'ZipCode', 'oh two nine oh six'],
      ['pin code five six zero zero three four bangalore', 'ZipCode', 'five six zero zero three four'],
    ],
    said,
  );
  // five digits with no place after them stay readable
  expectUnmasked([['I paid 12500 for the kitchen.', ['12500']]], written);
});

test("a driver's license after the state that issued it", () => {
  expectKind([['License is New York, 718 402 559, and the other driver is my partner.', 'USDriversLicenseNumber', '718 402 559']], written);
  expectKind(
    [
      ['license is new york seven one eight four oh two five five nine and the other driver is my partner', 'USDriversLicenseNumber', 'seven one eight four oh two five five nine'],
      ['my license is texas four four one two eight eight three', 'USDriversLicenseNumber', 'four four one two eight eight three'],
    ],
    said,
  );
});

test('an SSN written 3-2-4 after "the card", and its last four said alone', () => {
  expectKind(
    [
      ['Let me read it off the card... 318 40 2296.', 'USSocialSecurityNumber', '318 40 2296'],
      ["For my husband, it's just the last four you need, right? 3817.", 'USSocialSecurityNumber', '3817'],
      ['The last four digits are 3817.', 'USSocialSecurityNumber', '3817'],
    ],
    written,
  );
  expectKind([['for my husband its just the last four you need right three eight one seven', 'USSocialSecurityNumber', 'three eight one seven']], said);
  // the last four of a card stay the card's; the last four years are no digits
  expectKind([['The last four of my card are 4242.', 'CreditCardNumber', '4242']], written);
  expectUnmasked([['For the last four years, since 2019, it worked.', ['2019']]], written);
  expectUnmasked([['in the last four months i paid twelve fifty', ['twelve fifty']]], said);
});

test('an IP said with "point"; a version of the same shape is none', () => {
  expectKind([['the public i p off the status page ninety eight point two oh seven point sixteen point one three nine', 'IPAddress', 'ninety eight point two oh seven point sixteen point one three nine']], said);
  expectUnmasked([["The app's on version 10.4.2.118 and the notes say 10.4.3 fixes it.", ['10.4.2.118']]], written);
  expectUnmasked([['the app is on version ten point four point two point one one eight', ['ten point four point two point one one eight']]], said);
  // the same digits as an address stay masked
  expectKind([['The router is at 10.4.2.118 now.', 'IPAddress', '10.4.2.118']], written);
  expectKind([['the router is at ten point four point two point one one eight', 'IPAddress', 'ten point four point two point one one eight']], said);
});

test('an email at "fast mail", with an underscore and digits in it', () => {
  expectKind([['the email on file should be t dot vish nevsky underscore eighty eight at fast mail dot f m', 'Email', 't dot vish nevsky underscore eighty eight at fast mail dot f m']], said);
});

test("an invoice's number, a part no., a citation number are no one's; the same digits after a personal cue are", () => {
  expectNone(
    [
      ['Invoice 310448725, dated the 2nd, net 15.', ALL_NUMBERS],
      ['Item 3, replacement compressor, part no. 2217-0093, qty 1.', ALL_NUMBERS],
      ['The citation number is 1204-778-3361 and it says expired meter.', ALL_NUMBERS],
    ],
    written,
  );
  expectNone(
    [
      ['invoice three one oh four four eight seven two five dated the second net fifteen', ALL_NUMBERS],
      ['the citation number is twelve oh four seven seven eight three three six one and it says expired meter', ALL_NUMBERS],
    ],
    said,
  );
  expectKind(
    [
      ['My social is 310448725.', 'USSocialSecurityNumber', '310448725'],
      // written 3-2-4 is an SSN whatever names it
      ['Invoice 123-45-6789 is what it says.', 'USSocialSecurityNumber', '123-45-6789'],
      ['Part no. 2217-0093, and my cell is 555-2217-0093.', 'PhoneNumber', '555-2217-0093'],
      ['Call me at 204-778-3361.', 'PhoneNumber', '204-778-3361'],
    ],
    written,
  );
  expectKind([['my social is three one oh four four eight seven two five', 'USSocialSecurityNumber', 'three one oh four four eight seven two five']], said);
});

test('amounts one after another are no digit run; digits said one by one still are', () => {
  expectNone([['The appraisal came in at $385,000, $5,000 under contract.', ALL_NUMBERS]], written);
  expectNone(
    [
      ['the appraisal came in at three hundred eighty five thousand five thousand under contract', ALL_NUMBERS],
      ['its two thousand one thousand five hundred', ALL_NUMBERS],
    ],
    said,
  );
  expectKind([['call me at three eight five zero zero zero five zero zero zero', 'PhoneNumber', 'three eight five zero zero zero five zero zero zero']], said);
  expectKind([['Call me at 385 000 5000.', 'PhoneNumber', '385 000 5000']], written);
  // one amount with two magnitude words is one number
  expectUnmasked([['it was one million two hundred thousand', ['one million two hundred thousand']]], said);
});
