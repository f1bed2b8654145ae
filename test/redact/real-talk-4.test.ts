// Issue #32, round 4: names and addresses in shapes the third author's turns showed unread, and words taken for
// them that are not, each written and said (ASR form: lower case, no punctuation). Names here are made up.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { said, written, shown, type Found } from '../helpers/detections.js';


/** Every `value` is covered by a detection of `kind`. */
function expectKind(kind: string, text: string, values: string[], detect: (s: string) => Found): void {
  const found = detect(text);
  for (const v of values) assert.ok(found.some((d) => d.kind === kind && d.text.includes(v)), `${text}: expected ${kind} "${v}", got ${shown(found)}`);
}
const expectPersons = (text: string, values: string[], detect: (s: string) => Found) => expectKind('Person', text, values, detect);
/** No detection of `kind` covers `word`. */
function expectNot(kind: string, text: string, word: string, detect: (s: string) => Found): void {
  const found = detect(text);
  assert.ok(!found.some((d) => d.kind === kind && d.text.toLowerCase().includes(word.toLowerCase())), `${text}: "${word}" masked as ${kind}: ${shown(found)}`);
}

test('a name that is also a word, after a relation and before a verb a modal does not take', () => {
  expectPersons('My name is Tove Lindahl, and my wife Hope is on the plan as well.', ['Tove Lindahl', 'Hope'], written);
  expectPersons('my name is tove lindahl and my wife hope is on the plan as well', ['tove lindahl', 'hope'], said);
  expectPersons('my brother bill has the other card', ['bill'], said);
  // a modal before a verb stays a modal
  expectNot('Person', 'my husband will call you back tomorrow', 'will', said);
});

test('a name put beside who they are ("and Rolf, her brother, pays it")', () => {
  expectPersons('My aunt Edda opened it, and Rolf, her brother, pays the bill.', ['Edda', 'Rolf'], written);
  expectPersons('my aunt edda opened it and rolf her brother pays the bill', ['rolf'], said);
});

test('a person asked for ("is Ray still there?") and a caller back again ("it\'s Nora again")', () => {
  expectPersons('Is Ray still there? He fixed it the last time.', ['Ray'], written);
  expectPersons('is ray still there he fixed it the last time', ['ray'], said);
  expectPersons("Hello Imelda, it's Frank again about the refund.", ['Imelda', 'Frank'], written);
  expectPersons('hello imelda its frank again about the refund', ['imelda', 'frank'], said);
  expectNot('Person', 'is it still there or did the courier take it back', 'it', said);
});

test('the next name of a list, and the other name offered, are masked', () => {
  expectPersons('On the plan are me, my husband Teodor, and our two girls, Ilse and Wrenna.', ['Teodor', 'Ilse', 'Wrenna'], written);
  expectPersons('I dealt with a lady called Marisela, or Marisol, last week.', ['Marisela', 'Marisol'], written);
  expectPersons('i dealt with a lady called marisela or marisol last week', ['marisela', 'marisol'], said);
});

test('a name said in pieces before its spelling is a name, not an address', () => {
  expectPersons('so its ah dee yemi a d e y e m i and the first name is tunde', ['a d e y e m i', 'tunde'], said);
  expectNot('Address', 'so its ah dee yemi a d e y e m i and the first name is tunde', 'yemi', said);
});

test('a name before a number and its cue is a name, not a street ("holder is X routing ...")', () => {
  const t = 'the account holder is marguerite obi routing oh two one oh oh oh oh two one';
  expectPersons(t, ['marguerite obi'], said);
  expectNot('Address', t, 'obi', said);
});

test('an adverb after a relation is no name', () => {
  expectNot('Person', 'my wife normally handles the bills but she is travelling', 'normally', said);
  expectPersons('my wife lisbeth handles the bills', ['lisbeth'], said);
});

test('words the tagger took for names that are not: a product with a title, an abbreviation, a phone state, a hyphenated verb, a spelling aid', () => {
  expectNot('Person', 'Can I get a Dr Pepper with that, and tell Mr. Aldous the order is late.', 'Pepper', written);
  expectPersons('Can I get a Dr Pepper with that, and tell Mr. Aldous the order is late.', ['Aldous'], written);
  expectNot('Person', 'can i get a doctor pepper with that', 'pepper', said);
  expectNot('Person', 'The car seats seven, so we booked the SUV for Saturday.', 'SUV', written);
  expectNot('Person', 'hang on im on speaker in the car', 'speaker', said);
  expectNot('Person', 'Will you price-match the online deal?', 'price-match', written);
  expectNot('Person', 'The postcode is LS6 3QT, Q for Quentin.', 'Quentin', written);
  expectNot('Person', 'the cable is u s b c on both ends', 'u s b c', said);
  expectPersons('The letter should go to Quentin Marlowe.', ['Quentin Marlowe'], written);
});

test('talk the tagger took for an address that is not: keypad verbs, a network generation, a code after its label, a promo code', () => {
  expectNot('Address', 'dial two for billing then press four', 'dial', said);
  expectNot('Address', 'Dial 2 for billing, then press 4.', 'Dial', written);
  expectNot('Address', 'out in the country i only get four g coverage', 'four g', said);
  expectNot('Address', 'my bookings r nine four four two one seven for the weekend', 'nine', said);
  expectNot('Address', 'the voucher was summer twenty and it did not apply', 'summer', said);
  expectNot('Address', 'The voucher was SPRING30 and it did not apply.', 'SPRING30', written);
  // a street with its number is still an address
  expectKind('Address', 'ship it to forty two kingsring nine please', ['kingsring'], said);
  expectKind('Address', 'I live at 88 Elmwood Street, Dayton.', ['88 Elmwood Street'], written);
});

test('a shop located by its street is not an address; where someone lives is', () => {
  expectNot('Address', 'Is the bakery on Market Street still open late?', 'Market Street', written);
  expectNot('Address', 'I went to the branch on Cedar Avenue yesterday.', 'Cedar Avenue', written);
  expectKind('Address', 'We live on Cedar Avenue, the blue house.', ['Cedar Avenue'], written);
});

test('a name asked to be put through to, a name after "named", and a name said in pieces before its spelling', () => {
  expectPersons('Could you put me through to Ysolina in the claims team?', ['Ysolina'], written);
  expectPersons('could you put me through to ysolina in the claims team', ['ysolina'], said);
  expectPersons('transfer me to ray please', ['ray'], said);
  expectNot('Person', 'could you put me through to billing please', 'billing', said);
  expectPersons('i spoke with a gentleman named august on tuesday', ['august'], said);
  expectPersons('surname is green wood g r e e n w o o d', ['green wood', 'g r e e n w o o d'], said);
});

test('a department put through to is no name', () => {
  for (const t of ['Can you transfer me to Retention?', 'Please put me through to Member Services.']) expectNot('Person', t, t.includes('Retention') ? 'Retention' : 'Member', written);
  expectNot('Person', 'can you transfer me to retention', 'retention', said);
});
