// Issue #32, round 6 (names and addresses): shapes the fifth author's turns showed unread or read wrong, each
// written and said (ASR form: lower case, numbers as words). Every precision filter has its still-masked
// counterpart: the same shape carrying a real name or address stays masked. Names and values here are made up.
import { test } from 'node:test';
import { expectMasked, expectNotKind, expectKind, said, written, type Found } from '../helpers/detections.js';

type Detect = (s: string) => (Found[number] & { start: number; end: number })[];

const W = written as Detect;
const A = said as Detect;

test('an abbreviation said letter by letter is no name spelled ("the s l a is", "the i m e i is", "honda c r v")', () => {
  expectNotKind(
    [
      ['and the s l a on that is forty eight hours', 's l a', ['Person']],
      ['the n d c printed on the bottle is zero one two three four', 'n d c', ['Person']],
      ['its a twenty twenty honda c r v with sixty thousand miles', 'c r v', ['Person']],
      ['the i m e i is three five one two two four', 'm e i', ['Person']],
    ],
    A,
  );
  // still masked: a name spelled after a name's cue, even of the same letters
  expectKind([['my last name is s l a', 'Person', 's l a']], said);
  expectKind([['my name is d o b', 'Person', 'd o b']], said);
});

test('"d o b" before the date is the date\'s cue, not a name spelled; the date stays masked', () => {
  const text = 'member name orla quist d o b four eleven fifty two';
  expectNotKind([[text, 'd o b', ['Person']]], A);
  expectMasked([[text, 'four eleven fifty two'], [text, 'orla quist']], A);
  // still masked: a name after "spelled"
  expectKind([['thats spelled d o b e r', 'Person', 'd o b e r']], said);
  // (self-review) letters of an abbreviation before digits in an e-mail spelled stay part of it
  expectMasked([['my email is p c one two three at gmail dot com', 'p c one two three']], A);
});

test('a military office named alone is no address ("shipping to APO addresses"); with a box or region it is', () => {
  expectNotKind([['Shipping to APO addresses can take three weeks.', 'APO', ['Address']]], W);
  expectNotKind([['shipping to a p o addresses can take three weeks', 'a p o', ['Address']]], A);
  expectMasked([['Send it to APO box 5521 please.', 'APO box 5521'], ['Ship to PSC 4410 Box 77, APO AE 09104.', 'PSC 4410 Box 77, APO AE 09104']], W);
  expectMasked([['send it to a p o box five five two one please', 'a p o box five five two one'], ['its a p o a e zero nine one oh four', 'a p o a e zero nine one oh four']], A);
});

test('a rank before a name keeps it a person beside a box address ("Staff Sergeant Ines Varga, Unit ...")', () => {
  expectKind([['Mail it to Staff Sergeant Ines Varga, Unit 20145 Box 62, APO AE 09096.', 'Person', 'Ines Varga']], written);
  expectMasked([['Mail it to Staff Sergeant Ines Varga, Unit 20145 Box 62, APO AE 09096.', 'Unit 20145 Box 62, APO AE 09096']], W);
  // still an address: a street named after a rank and a name
  expectKind([['I live at 40 Captain Hale Drive.', 'Address', '40 Captain Hale Drive']], written);
});

test('banks named in a row are no people ("Citibank, Chase, Wells Fargo"); the same names said as names stay', () => {
  // (only a bank's whole name no one is called is dropped: "Chase" alone is a name's word and may stay masked)
  expectNotKind([['Citibank, Chase, Wells Fargo, they all charge that fee.', 'Wells Fargo', ['Person']]], W);
  expectNotKind([['citibank chase wells fargo they all charge that fee', 'fargo', ['Person']]], A);
  // still masked: the names with a name's cue, or without a bank no one is called beside them
  expectKind([['my name is chase wells', 'Person', 'chase wells']], said);
  expectKind([['chase wells called me yesterday', 'Person', 'chase wells']], said);
  expectMasked([['My son is Will Fargo.', 'Will Fargo'], ['My kids are Chase and Ally, and Chase has the card.', 'Chase']], W);
  expectMasked([['my son is will fargo', 'will fargo']], A);
  // (self-review) a person's name that begins like a bank's, after a list of banks, stays a name
  expectMasked([['citibank chase wells fargo hale called me', 'wells fargo hale']], A);
});

test('a brand before "model" and its code is no name ("a 5-ton Lennox, model EL16"); a name there stays', () => {
  expectNotKind([['The furnace is a 5-ton Rheemco, model RP14, about ten years old.', 'Rheemco', ['Person']]], W);
  expectNotKind([['the furnace is a five ton rheemco model r p fourteen about ten years old', 'rheemco', ['Person']]], A);
  // still masked: a name with a cue before "model"
  expectMasked([['My name is Zora Quintel, model number is on the box.', 'Zora Quintel']], W);
});

test('letters and numbers said together are a code, not a name or an address ("model x k two v four")', () => {
  expectNotKind([['the router is a model x k two v four and it keeps dropping', 'x k two v four', ['Person', 'Address']]], A);
  expectNotKind([['a fifty inch t v model u n five oh t seven and the screen cracked', 'u n five oh t seven', ['Person', 'Address']]], A);
  expectNotKind([['the heat pump is a four ton model g s z fourteen seer sixteen', 'g s z fourteen seer sixteen', ['Address']]], A);
  // still masked: a street with a number and its type
  expectMasked([['i live at twelve model farm road', 'twelve model farm road']], A);
});

test('numbers and a contraction, a number and its unit, an airline code after "flight" are no address', () => {
  expectNotKind(
    [
      ['your total comes to nine forty itll ship tomorrow', 'nine forty itll', ['Address']],
      ['weve had the plan since two thousand nine itll be seventeen years', 'two thousand nine itll', ['Address']],
    ],
    A,
  );
  expectNotKind([['The blower runs at 1,850 RPM on low.', '1,850 RPM', ['Address']], ['I was on flight DL 2207 to Boise.', 'DL', ['Address']]], W);
  // still masked: a house number and a street
  expectMasked([['the address is nine forty elm street', 'nine forty elm street']], A);
  expectMasked([['Ship it to 1850 Rampart Way, Boise.', '1850 Rampart Way']], W);
});

test('a business named before what it does is no address ("Nadia from Brightpine Dental"); a street stays', () => {
  expectNotKind([["Hi, it's Nadia from Brightpine Dental about your cleaning.", 'Brightpine', ['Address']]], W);
  expectKind([["Hi, it's Nadia from Brightpine Dental about your cleaning.", 'Person', 'Nadia']], written);
  expectMasked([['I live at 18 Brightpine Way.', '18 Brightpine Way']], W);
});

test('a town said after its postcode is no name ("postcode is 4051, it\'s in Toowong"); a name there stays', () => {
  expectNotKind([["The postcode is 4066, it's in Auchenflower.", 'Auchenflower', ['Person']]], W);
  expectNotKind([["Postcode 2145, that's out near Westmead.", 'Westmead', ['Person']]], W);
  // still masked: a name after "in" that a name list holds, and where someone lives
  expectMasked([["The postcode is 4066, it's in Keegan's name.", 'Keegan'], ["Postcode 2145, that's out near Miller.", 'Miller'], ['The postcode is 4066, send it to Ingrid Solberg.', 'Ingrid Solberg']], W);
});

test('an English word said of a thing is no name ("the meal is vegetarian"); a name said of a person stays', () => {
  expectNotKind([['seat nine c and the meal is vegetarian i asked last week', 'vegetarian', ['Person']]], A);
  expectKind([['the technician is zebulon', 'Person', 'zebulon']], said);
  expectMasked([['The account holder is Hope Ravel.', 'Hope Ravel']], W);
});

test('a name that is also a word after a relation ("put my daughter May on the plan"); the modal stays unmasked', () => {
  expectKind([['Put my daughter May on the plan as a user, she is 16.', 'Person', 'May']], written);
  expectKind([['put my daughter may on the plan as a user shes sixteen', 'Person', 'may']], said);
  expectKind([['add my husband will as a user', 'Person', 'will']], said);
  expectKind([['My son is Will Ostrova.', 'Person', 'Will Ostrova']], written);
  expectNotKind([['my son will call you back tomorrow', 'will', ['Person']]], A);
  expectNotKind([['My son will call you back tomorrow.', 'will', ['Person']]], W);
});

test('the one who served, beside their role ("The installer, Faith, was quick")', () => {
  expectKind([['The installer, Faith, was quick and tidy.', 'Person', 'Faith']], written);
  expectKind([['the technician faith was quick and tidy', 'Person', 'faith']], said);
  expectNotKind([['The technician, however, was late.', 'however', ['Person']]], W);
  expectNotKind([['the technician fixed it in ten minutes', 'fixed', ['Person']]], A);
});

test('who a call asks for as it opens ("is this june okoro hi its ...")', () => {
  expectKind([['is this june okoro hi its bram from the clinic', 'Person', 'june okoro']], said);
  expectKind([['hi is this zaid', 'Person', 'zaid']], said);
  expectNotKind([['is this the right number for billing', 'right', ['Person']], ['is this going to take long', 'going', ['Person']]], A);
});

test('a name that is also a word joined to a name a frame found ("make it out to ruth and bill")', () => {
  expectKind([['make the check out to ruth and bill its for their wedding', 'Person', 'bill']], said);
  expectNotKind([['send the money to ruth and will be there by noon', 'will', ['Person']]], A);
});

test('a house number and a street corrected: both tries are masked ("its four eighteen alderley no its four eighty one alderley road")', () => {
  expectMasked([['its four eighteen alderley no wait its four eighty one alderley road', 'four eighteen alderley']], A);
  expectMasked([["It's 418 Alderley, no, 481 Alderley Road.", '418 Alderley']], W);
  expectNotKind([['i bought three alderley chairs and i live at twelve alderley road', 'three alderley', ['Address']]], A);
});
