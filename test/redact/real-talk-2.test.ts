// Issue #32, round 2: shapes another author's turns showed leaking or over-masked, each written and said (ASR
// form: lower case, no punctuation, numbers as words). Names, addresses and numbers here are made up.
import { test } from 'node:test';
import { said, written, expectKind, expectNone } from '../helpers/detections.js';

test("a passport number after \"passport's\" is a passport, not an SSN (written and said)", () => {
  expectKind([["My passport's 318402967, the old one.", 'USPassportNumber', '318402967']], written);
  expectKind([['my passports three one eight four oh two nine six seven the old one', 'USPassportNumber', 'three one eight four oh two nine six seven']], said);
});

test("an expiry after \"expiry's\", and said again a few words on, is masked both times (written and said)", () => {
  expectKind(
    [
      ["Expiry's June 2029, hang on, let me check, yes, June '29.", 'ExpirationDate', 'June 2029'],
      ["Expiry's June 2029, hang on, let me check, yes, June '29.", 'ExpirationDate', "June '29"],
    ],
    written,
  );
  expectKind(
    [
      ['expirys june twenty twenty nine hang on let me check yes june twenty nine', 'ExpirationDate', 'june twenty twenty nine'],
      ['expirys june twenty twenty nine hang on let me check yes june twenty nine', 'ExpirationDate', 'june twenty nine'],
    ],
    said,
  );
});

test('a month alone after an expiry is no second date', () => {
  expectNone([['expiry is june twenty twenty nine and i moved in march', ['ExpirationDate']]], (s) => said(s).filter((d) => d.text === 'march'));
});

test('a spoken IBAN whose bank code holds the letter O ("r a b o") is found without a cue', () => {
  // NL91 ABNA 0417 1643 00 with its bank code read as RABO's shape: a made-up, valid NL number
  expectKind([['wire it to n l seven seven r a b o nine three one five oh nine three nine three nine please', 'IBAN', 'n l seven seven r a b o nine three one five oh nine three nine three nine']], said);
});

test('a ticket, order or tracking number after its noun is no phone number (written and said)', () => {
  expectNone(
    [
      ['Your ticket number is 4471-208, and you should get an email.', ['PhoneNumber']],
      ['The order # is 882-1934 if you need it.', ['PhoneNumber']],
    ],
    written,
  );
  expectNone([['your ticket number is four four seven one two oh eight and you should get an email', ['PhoneNumber']]], said);
});

test("a phone number after a reference's noun is still one when a phone's cue comes between, or the noun is not said", () => {
  expectKind([['My order number is 7731, call me at 555-201-4477.', 'PhoneNumber', '555-201-4477']], written);
  expectKind([['order number is one two three you can reach me at five five five two oh one four four seven seven', 'PhoneNumber', 'five five five two oh one four four seven seven']], said);
  // "the claim is under review, it's ...": no noun, the number may be a callback
  expectKind([['yeah your claim is under review its oh two oh seven nine four six oh nine five eight', 'PhoneNumber', 'oh two oh seven nine four six oh nine five eight']], said);
});

test("a state or town alone beside another kind's number is no address (written and said)", () => {
  expectNone(
    [
      ["Driver's license is D412-7781-9053, Illinois.", ['Address']],
      ['Texas DL, 28041957, and my date of birth is 8/14/1979.', ['Address']],
    ],
    written,
  );
  expectNone(
    [
      ['drivers license is d four one two seven seven eight one nine oh five three illinois', ['Address']],
      ['texas d l two eight oh four one nine five seven and my date of birth is august fourteenth seventy nine', ['Address']],
      ['the zip is d zero two thats dublin', ['Address']],
      ['uh the model is the x four fifty the black one', ['Address']],
    ],
    said,
  );
  expectKind([['texas d l two eight oh four one nine five seven', 'USDriversLicenseNumber', 'two eight oh four one nine five seven']], said);
});

test('a town and state with their own number stay an address (written and said)', () => {
  expectKind([['I live at 12 Oak Street, Springfield, Illinois 62704.', 'Address', '12 Oak Street, Springfield, Illinois 62704']], written);
  expectKind([['twelve oak street springfield illinois six two seven oh four', 'Address', 'twelve oak street springfield illinois six two seven oh four']], said);
});

test('a relation\'s name ("our son Leo") is a person, even a word no list names (written and said)', () => {
  expectKind([['The users are me and our son Leo.', 'Person', 'Leo']], written);
  expectKind([['the users are me and our son leo', 'Person', 'leo']], said);
  expectNone(
    [
      ['my son will call you back', ['Person']],
      ['my daughter just turned ten', ['Person']],
      ['my friend recommended you', ['Person']],
    ],
    said,
  );
});

test('what is held "under" someone names them: "put it under Bill", "the reservation is under Okafor" (written and said)', () => {
  expectKind(
    [
      ['Put it under Bill, no, sorry, William Teague.', 'Person', 'Bill'],
      ['The reservation is under Okafor.', 'Person', 'Okafor'],
    ],
    written,
  );
  expectKind([['put it under bill no sorry william teague', 'Person', 'bill']], said);
  expectNone(
    [
      ['the box is under the table', ['Person']],
      ['its still under warranty', ['Person']],
    ],
    said,
  );
});

test('a "four-digit code" written with its hyphen cues a CVV as said without it', () => {
  expectKind([['The Amex is 3759 883931 27470, and the four-digit code on the front is 6021.', 'CVV', '6021']], written);
  expectKind([['the four digit code on the front is six oh two one', 'CVV', 'six oh two one']], said);
});

test('phone numbers read digit by digit, in groups, with "double" and "oh", and postcodes after their cue (said and written)', () => {
  expectKind(
    [
      ['my number is double five five two oh one four four seven seven', 'PhoneNumber', 'double five five two oh one four four seven seven'],
      ['you can reach me on five five five two oh one four', 'PhoneNumber', 'five five five two oh one four'],
      ['my cell is five five five twenty oh one forty four seventy seven', 'PhoneNumber', 'five five five twenty oh one forty four seventy seven'],
      ['call me back at oh seven seven double oh nine eight three four five six', 'PhoneNumber', 'oh seven seven double oh nine eight three four five six'],
      ['postcode is l s one four a b', 'ZipCode', 'l s one four a b'],
    ],
    said,
  );
  expectKind(
    [
      ['You can reach me on 555 2014.', 'PhoneNumber', '555 2014'],
      ['My cell is 555-201-4477.', 'PhoneNumber', '555-201-4477'],
    ],
    written,
  );
});
