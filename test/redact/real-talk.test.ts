// Issue #32: precision on ordinary customer-service talk and the shapes that still leaked, each written and said
// (ASR form: lower case, no punctuation, numbers as words). Names, addresses and numbers here are made up.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detectText, detectWords } from '../../src/redact/detect.js';
import { Masker } from '../../src/redact/masks.js';
import { redactRecord } from '../../src/redact/redactRecord.js';
import { redactText } from '../../src/redact/redactText.js';
import type { RedactionRule } from '../../src/redact/rules.js';
import type { EventRecord } from '../../src/schema/resources/eventRecord.js';
import type { EntityKind } from '../../src/redact/entityKinds.js';

const ON = { tagger: true } as const;
type Found = { kind: string; text: string }[];
const shown = (ds: Found) => JSON.stringify(ds.map((d) => `${d.kind}: ${d.text}`));
const said = (s: string) => detectWords(s.split(' '), ON);
const written = (s: string) => detectText(s, ON);
/** A detection of `kind` covers `text` (or a ZipCode/Address covers it as the other). */
const covers = (ds: Found, kind: EntityKind, text: string) =>
  ds.some((d) => (d.kind === kind || (kind === 'Address' && d.kind === 'ZipCode') || (kind === 'ZipCode' && d.kind === 'Address')) && d.text.includes(text));

function expectFound(cases: [string, EntityKind, string][], detect: (s: string) => Found): void {
  for (const [text, kind, value] of cases) {
    const found = detect(text);
    assert.ok(covers(found, kind, value), `${text}: expected ${kind} "${value}", got ${shown(found)}`);
  }
}
function expectNothing(texts: string[], detect: (s: string) => Found): void {
  for (const text of texts) {
    const found = detect(text);
    assert.deepEqual(found.map((d) => `${d.kind}: ${d.text}`), [], `${text}: nothing is personal data`);
  }
}

test('ordinary words, pronouns, measures and amounts are not masked (written)', () => {
  expectNothing(
    [
      'I want to cancel my credit card, it was stolen on the train.',
      "It's been about eighty three degrees in the warehouse all week.",
      'Pretty good, it\'s sunny here for once.',
      'The invoice total came to 1,450 dollars including tax.',
      'We ordered 12 boxes and only 9 arrived.',
      'Can you transfer me to Sales?',
      'Mark my words, I am never shopping there again.',
    ],
    written,
  );
});

test('ordinary words, pronouns, measures and amounts are not masked (said)', () => {
  expectNothing(
    [
      'i want to cancel my credit card it was stolen on the train',
      'its been about eighty three degrees in the warehouse all week',
      'pretty good its sunny here for once',
      'the invoice total came to one thousand four hundred fifty dollars including tax',
      'the fridge is set to thirty eight degrees and the milk still spoils',
      'we ordered twelve boxes and only nine arrived',
      'i paid with apple pay not with the visa',
    ],
    said,
  );
  // "my" is kept: the redacted text still reads "cancel my credit card"
  const rules: RedactionRule[] = [{ kind: 'Person', maskType: 'EntityIndex', setting: '[PERSON]' }];
  assert.equal(redactText('i want to cancel my credit card', rules, new Masker('k')).text, 'i want to cancel my credit card');
});

test('names in payment, transfer and sharing requests', () => {
  expectFound(
    [
      ['Please send the money to Pat by Friday.', 'Person', 'Pat'],
      ["I'd like to transfer 200 dollars to Georgia, she's my sister.", 'Person', 'Georgia'],
      ['Can I share the account with Dale?', 'Person', 'Dale'],
      ['Can you add Rose as an authorized user?', 'Person', 'Rose'],
      ['Please make the check out to Corliss Umberfield.', 'Person', 'Corliss'],
    ],
    written,
  );
  expectFound(
    [
      ['please send the money to pat by friday', 'Person', 'pat'],
      ['id like to transfer two hundred dollars to georgia shes my sister', 'Person', 'georgia'],
      ['can i share the account with dale', 'Person', 'dale'],
      ['can you add rose as an authorized user', 'Person', 'rose'],
    ],
    said,
  );
  // a street after "send it to" stays the address rules' (no Person over "Bakkevej")
  assert.ok(!written('Can you send it to Bakkevej 210?').some((d) => d.kind === 'Person'));
  assert.ok(!said('i paid with apple pay not with the visa').some((d) => d.kind === 'Person'));
});

test('providers, titles before word-names, middle initials', () => {
  expectFound(
    [
      ['I need to book with Dr Quillfeather next Tuesday.', 'Person', 'Quillfeather'],
      ['Marisol is my stylist, can you put me with her again?', 'Person', 'Marisol'],
      ['My physical therapist is Lindqvist, at the clinic downtown.', 'Person', 'Lindqvist'],
      ["His name is Mr. Will, he's the landlord.", 'Person', 'Will'],
      ['The account is under Henrietta J. Oduya.', 'Person', 'J.'],
    ],
    written,
  );
  expectFound(
    [
      ['i need to book with doctor quillfeather next tuesday', 'Person', 'quillfeather'],
      ['marisol is my stylist can you put me with her again', 'Person', 'marisol'],
      ['my physical therapist is lindqvist at the clinic downtown', 'Person', 'lindqvist'],
      ['his name is mister will hes the landlord', 'Person', 'will'],
      ['the account is under henrietta j oduya', 'Person', 'henrietta j oduya'],
    ],
    said,
  );
  // a verb after "i": "i miss you" is no title
  assert.ok(!said('i miss you guys already').some((d) => d.kind === 'Person'));
});

test('lone family names in reporting frames, and names with accents said', () => {
  expectFound(
    [
      ['Well, Brennan says the refund went out already.', 'Person', 'Brennan'],
      ['The letter was signed by Kowalczyk.', 'Person', 'Kowalczyk'],
      ['The form was filled in by Van der Berg.', 'Person', 'Berg'],
      ['My name is José Núñez.', 'Person', 'Núñez'],
    ],
    written,
  );
  expectFound(
    [
      ['well brennan says the refund went out already', 'Person', 'brennan'],
      ['i was helped by okonkwo at the front desk', 'Person', 'okonkwo'],
      ['the form was filled in by van der berg', 'Person', 'berg'],
      ['my name is josé núñez', 'Person', 'núñez'],
    ],
    said,
  );
  // a day after "by" is no name
  assert.ok(!written('It was shipped by Friday, they promised.').some((d) => d.kind === 'Person'));
});

test('intersections, box, route and military addresses', () => {
  expectFound(
    [
      ["We're at the corner of Maple and Seventh.", 'Address', 'Seventh'],
      ['The building is at Fifth and Pine, right by the bank.', 'Address', 'Pine'],
      ['Deliver it to Unit 4, 19 Harbour Street.', 'Address', 'Unit 4'],
      ['My mailing address is PSC 1234 Box 5678, APO AE 09012.', 'Address', 'APO AE'],
      ['Deliver to Box 14, Route 2, Harlan.', 'Address', 'Route 2'],
    ],
    written,
  );
  expectFound(
    [
      ['were at the corner of maple and seventh', 'Address', 'seventh'],
      ['the building is at fifth and pine right by the bank', 'Address', 'pine'],
      ['my mailing address is p s c one two three four box five six seven eight a p o a e', 'Address', 'a p o a e'],
      ['deliver to box fourteen route two harlan', 'Address', 'route two'],
    ],
    said,
  );
  // no numbered street, no "corner of": not an intersection
  assert.ok(!written('I was at work and home all day.').some((d) => d.kind === 'Address'));
});

test('short and dashed postal codes after a cue, local phone numbers, e-mails ending in a word', () => {
  expectFound(
    [
      ["The zip is D02, that's Dublin.", 'ZipCode', 'D02'],
      ['Zip code 4051.', 'ZipCode', '4051'],
      ['The code on the letter is 1234-567.', 'ZipCode', '1234-567'],
      ['My local number is 555 0142.', 'PhoneNumber', '555 0142'],
      ['My email is k.ambrose@mailbox.us.', 'Email', 'k.ambrose@mailbox.us'],
    ],
    written,
  );
  expectFound(
    [
      ['the zip is d zero two thats dublin', 'ZipCode', 'd zero two'],
      ['zip code four zero five one', 'ZipCode', 'four zero five one'],
      ['the code on the letter is one two three four five six seven', 'ZipCode', 'one two three four five six seven'],
      ['my local number is five five five zero one four two', 'PhoneNumber', 'five five five zero one four two'],
      ['my email is k dot ambrose at mailbox dot us', 'Email', 'dot us'],
    ],
    said,
  );
  // not phones: an order number, a ticket number
  expectNothing(['my order number is five five one two zero one four and it still hasnt shipped'], said);
});

test('a name found once after a title is masked everywhere in the record', () => {
  // (propagation keeps its bar: a value found at 0.8 or more, of 5 letters or more; a title gives 0.8)
  const PERSON: RedactionRule = { kind: 'Person', maskType: 'EntityIndex', setting: '[PERSON]' };
  const record = { utterances: [{ speaker: 1, text: 'Please send the money to Mr. Thackeray by Friday.' }], details: 'thackeray will confirm' } as unknown as EventRecord;
  const out = redactRecord(record, [PERSON], new Masker('k')).record;
  assert.ok(!/thackeray/i.test(out.utterances![0].text!), out.utterances![0].text);
  assert.ok(!/thackeray/i.test(out.details!), out.details);
});
