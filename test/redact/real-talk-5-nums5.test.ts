// Issue #32, round 5, the number kinds and Email: a routing number named after it or beside a bank, a card's code
// after "the code is", a card's date and code read straight after its number, an expiry said "expiration's", a ZIP
// before its city, India's "PIN code", a license after its state, an SSN written 3-2-4 after "the card", the last
// four said alone, an IP said with "point", an email at "fast mail"; and what is no one's left alone (an invoice's
// number, a part no., a citation number, a version, a quote's or a coupon's end, the code on a receipt, amounts said
// one after another), each beside a real value that is still masked. Written and said (ASR form). Values made up.
import assert from 'node:assert/strict';
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

test('leaks of the precision filters (#32 review): a number in groups of thousands after its cue stays one', () => {
  expectKind(
    [
      ['my card number is four thousand one thousand two thousand three thousand', 'CreditCardNumber', 'four thousand one thousand two thousand three thousand'],
      ['card number four one one one two thousand three thousand four thousand', 'CreditCardNumber', 'four one one one two thousand three thousand four thousand'],
      ['my card is four one one one one thousand one one one one thousand one one one one', 'CreditCardNumber', 'four one one one one thousand one one one one thousand one one one one'],
      ['phone is five five five thousand one thousand two three four', 'PhoneNumber', 'five five five thousand one thousand two three four'],
      ['phone is six one seven two thousand three thousand', 'PhoneNumber', 'six one seven two thousand three thousand'],
      ['account number is one thousand two thousand three thousand', 'USBankAccountNumber', 'one thousand two thousand three thousand'],
      ['my bank account is four million three million two one', 'USBankAccountNumber', 'four million three million two one'],
    ],
    said,
  );
  expectUnmasked([['the appraisal came in at three hundred eighty five thousand five thousand under contract', ['three hundred eighty five thousand five thousand']]], said);
  for (const [text, value] of [
    ['routing number is one thousand one thousand one thousand five', 'one thousand one thousand one thousand five'],
    ['my social is one two three thousand four five six thousand seven eight nine', 'one two three thousand four five six thousand seven eight nine'],
    ['the card is five thousand five thousand five thousand five thousand expires oh four twenty eight', 'five thousand five thousand five thousand five thousand'],
  ]) {
    const found = said(text);
    assert.ok(found.some((d) => d.text === value), `${text}: ${value} masked whole`);
  }
});

test('leaks of the precision filters (#32 review): a personal cue after a document\'s number, a card after a reference', () => {
  expectKind(
    [
      ['Order 6175550143 is my cell', 'PhoneNumber', '6175550143'],
      ["ticket 617-555-0143 that's my phone", 'PhoneNumber', '617-555-0143'],
      ['transaction 555 123 4567 call me there', 'PhoneNumber', '555 123 4567'],
      ['order 123 45 6789 — sorry, that was my social', 'USSocialSecurityNumber', '123 45 6789'],
      ['Receipt 078051120', 'USSocialSecurityNumber', '078051120'],
    ],
    written,
  );
  expectKind([['order six one seven five five five oh one four three is my cell', 'PhoneNumber', 'six one seven five five five oh one four three']], said);
  for (const text of ['Order 4532015112830366, 03/29, 551', 'Order 4532015112830366 03/29 551', 'Receipt 4532015112830366, 03/29, 551', 'Ticket 4532 0151 1283 0366, 03/29, 551', 'Invoice 4532015112830366 expires 03/29 code 551']) {
    expectKind([[text, 'ExpirationDate', '03/29'], [text, 'CVV', '551']], written);
    expectKind([[text, 'ExpirationDate', '03/29'], [text, 'CVV', '551']], (s) => written(s, ['ExpirationDate', 'CVV']));
  }
  expectKind(
    [
      ['order number four five three two oh one five one one two eight three oh three six six oh three twenty nine five five one', 'CVV', 'five five one'],
      ['order number four five three two oh one five one one two eight three oh three six six card oh three twenty nine five five one', 'ExpirationDate', 'oh three twenty nine'],
    ],
    said,
  );
});

test('leaks of the precision filters (#32 review): card codes, offers with a card, IPs named, currency signs inside digits', () => {
  expectKind(
    [
      ["CVV, it's on the back of the letter they sent with the card, 551.", 'CVV', '551'],
      ['the three digits on the back of the unit... I mean the card: 551', 'CVV', '551'],
      ["Security code? It's on the back of my bill fold, 551.", 'CVV', '551'],
      ['Payoff expires 12/30 on my Mastercard.', 'ExpirationDate', '12/30'],
      ['Special expires 05/29', 'ExpirationDate', '05/29'],
      ['firmware is 10.0.0.5 which is my IP', 'IPAddress', '10.0.0.5'],
      ['release is 10.0.0.5, my IP', 'IPAddress', '10.0.0.5'],
      ['my IP, version number 10.0.0.5', 'IPAddress', '10.0.0.5'],
      ['IPv4 version: 10.0.0.5', 'IPAddress', '10.0.0.5'],
      ['build: 10.0.0.5 is my public IP', 'IPAddress', '10.0.0.5'],
      ['V 73.22.118.4 is my home IP', 'IPAddress', '73.22.118.4'],
      ['My IP address, release 73.22.118.4', 'IPAddress', '73.22.118.4'],
      ['My social is 123$45$6789', 'USSocialSecurityNumber', '123$45$6789'],
      ['SSN 123-45-€6789', 'USSocialSecurityNumber', '123-45-€6789'],
      ['amount $12 card 4111$1111$1111$1111', 'CreditCardNumber', '4111$1111$1111$1111'],
    ],
    written,
  );
  expectKind(
    [
      ['the cvv on the back of the box it came in the card is five five one', 'CVV', 'five five one'],
      ['cvv is on the back of the tag five five one', 'CVV', 'five five one'],
      ['the sale is good through oh four twenty eight on my card', 'ExpirationDate', 'oh four twenty eight'],
      ['the offer expires oh four twenty eight', 'ExpirationDate', 'oh four twenty eight'],
      ['my ip is version ten dot zero dot zero dot five', 'IPAddress', 'ten dot zero dot zero dot five'],
      ['ip version is one nine two dot one six eight dot one dot one', 'IPAddress', 'one nine two dot one six eight dot one dot one'],
      ['v one nine two dot one six eight dot one dot one', 'IPAddress', 'one nine two dot one six eight dot one dot one'],
      ['my ip is v seven three dot two two dot one one eight dot four', 'IPAddress', 'seven three dot two two dot one one eight dot four'],
    ],
    said,
  );
  // what the filters keep: a gift receipt's code, a version, two amounts
  expectNone([['The code on the back of the gift receipt is 847.', ['CVV']], ['the firmware version is 10.4.2.118 now', ['IPAddress']]], written);
});
