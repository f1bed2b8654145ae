// detectText/detectWords: word-index mapping, checksums (confidence, never a way through), overlaps, kinds, and
// ordinary sentences without PII.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { detectText, detectWords, resolveOverlaps } from '../../src/redact/detect.js';
import { abaValid, luhn, ssnValid } from '../../src/redact/recognizers/digitRuns.js';
import type { Detection } from '../../src/redact/types.js';

const spoken = (s: string) => detectWords(s.split(' '));
const only = (found: Detection[], kind: Detection['kind']) => found.filter((d) => d.kind === kind);

describe('checksums', () => {
  test('luhn, SSN area rules, ABA', () => {
    assert.ok(luhn('4111111111111111'));
    assert.ok(!luhn('4111111111111112'));
    assert.ok(ssnValid('123456789'));
    for (const bad of ['000123456', '666123456', '912345678', '123006789', '123450000']) assert.ok(!ssnValid(bad), bad);
    assert.ok(abaValid('021000021'));
    assert.ok(!abaValid('021000022'));
  });

  test('Luhn raises card confidence; a 16-digit non-Luhn run is still a card', () => {
    const good = only(detectText('card 4111 1111 1111 1111'), 'CreditCardNumber');
    const bad = only(detectText('card 4111 1111 1111 1112'), 'CreditCardNumber');
    assert.equal(good.length, 1);
    assert.equal(bad.length, 1);
    assert.ok(good[0].confidence > bad[0].confidence);
    const noCue = detectText('reference 1234 5678 9012 3456 thanks');
    assert.equal(noCue.length, 1);
    assert.equal(noCue[0].text, '1234 5678 9012 3456');
    assert.equal(only(spoken('the number is one two three four five six seven eight nine oh one two three four five six'), 'CreditCardNumber').length, 1);
  });

  test('every run of 13 to 19 digits is detected, and longer ones too', () => {
    for (let n = 13; n <= 22; n++) {
      const digits = '7'.repeat(n);
      const found = detectText(`here it is ${digits} ok`);
      assert.equal(found.length, 1, `${n} digits`);
      assert.equal(found[0].text, digits);
    }
  });

  test('SSN area rules raise confidence; an invalid-area 9-digit run is still detected', () => {
    const good = only(detectText('ssn 123-45-6789'), 'USSocialSecurityNumber');
    const bad = only(detectText('ssn 987-65-4321'), 'USSocialSecurityNumber');
    assert.ok(good[0].confidence > bad[0].confidence);
    for (const s of ['987654321', '000123456', '666 12 3456']) {
      const found = detectText(`the number ${s} please`);
      assert.equal(found.length, 1, s);
      assert.equal(found[0].text, s);
    }
    const w = spoken('it is nine eight seven six five four three two one');
    assert.equal(w.length, 1);
    assert.equal(w[0].kind, 'USSocialSecurityNumber');
  });

  test('a cue chooses the label of a 9-digit run, and it stays detected', () => {
    assert.equal(detectText('routing number 021000021')[0].kind, 'ABARoutingNumber');
    assert.equal(detectText("driver's license 481195160")[0].kind, 'USDriversLicenseNumber');
    assert.equal(detectText('account number 481195160')[0].kind, 'USBankAccountNumber');
    assert.equal(detectText('social 481195160')[0].kind, 'USSocialSecurityNumber');
  });
});

describe('word indices', () => {
  test('each detection maps to the words that spoke it', () => {
    const w = 'hi my name is john smith my social is one two three uh four five six seven eight nine and email j dot smith at example dot com'.split(' ');
    const found = detectWords(w);
    const text = w.join(' ');
    const byKind = new Map(found.map((d) => [d.kind, d]));
    assert.deepEqual([byKind.get('Person')!.wordStart, byKind.get('Person')!.wordEnd], [4, 6]);
    const ssn = byKind.get('USSocialSecurityNumber')!;
    assert.deepEqual([ssn.wordStart, ssn.wordEnd], [9, 19]);
    const email = byKind.get('Email')!;
    assert.deepEqual([email.wordStart, email.wordEnd], [21, 28]);
    for (const d of found) {
      assert.equal(text.slice(d.start, d.end), d.text);
      assert.equal(w.slice(d.wordStart, d.wordEnd).join(' '), d.text);
    }
  });

  test('a digit run split across two utterances (consecutive words) is one detection', () => {
    const found = spoken('my card number is four one one one one one one one one one one one one one one one');
    assert.equal(found.length, 1);
    assert.deepEqual([found[0].wordStart, found[0].wordEnd], [4, 20]);
  });

  test('written text has character offsets and no word indices', () => {
    const t = 'Call (555) 123-4567 or mail a.b@c.io';
    for (const d of detectText(t)) {
      assert.equal(t.slice(d.start, d.end), d.text);
      assert.equal(d.wordStart, undefined);
    }
  });
});

describe('options and overlaps', () => {
  test('options.kinds restricts kinds', () => {
    const t = 'My name is John Smith, SSN 123-45-6789, email john@example.com';
    assert.deepEqual(detectText(t, { kinds: ['Email'] }).map((d) => d.kind), ['Email']);
    assert.deepEqual(detectText(t, { kinds: ['USSocialSecurityNumber', 'Person'] }).map((d) => d.kind).sort(), ['Person', 'USSocialSecurityNumber']);
  });

  test('overlaps: the more confident detection names what both cover; coverage is the union', () => {
    const mk = (kind: Detection['kind'], start: number, end: number, confidence: number): Detection => ({ kind, start, end, confidence, text: 'x'.repeat(end - start), recognizer: 't' });
    const kept = resolveOverlaps([mk('PhoneNumber', 0, 10, 0.6), mk('USSocialSecurityNumber', 2, 11, 0.9), mk('Email', 20, 30, 0.5)]);
    // The phone number lost the overlap but keeps the two characters only it covers.
    assert.deepEqual(kept.map((d) => [d.kind, d.start, d.end]), [['PhoneNumber', 0, 2], ['USSocialSecurityNumber', 2, 11], ['Email', 20, 30]]);
    // A less confident detection that reaches further on both sides keeps both ends.
    const wide = resolveOverlaps([mk('Person', 5, 8, 0.9), mk('Address', 0, 20, 0.5)]);
    assert.deepEqual(wide.map((d) => [d.kind, d.start, d.end]), [['Address', 0, 5], ['Person', 5, 8], ['Address', 8, 20]]);
  });
});

describe('no PII, no detection', () => {
  const NEGATIVE_WRITTEN = [
    'How do I check my balance on my credit card?',
    "I'm moving out of the country, so please cancel my subscription",
    'Capitalized words like Wisdom and Discipline are often mistaken with names.',
    'The meeting is at 3 pm on the second floor.',
    'I have 2 kids and 3 dogs.',
    'Thank you for calling, how can I help you today?',
    'We will send you a new card in 7 to 10 business days.',
  ];
  const NEGATIVE_SPOKEN = [
    'how do i check my balance on my credit card',
    'i have two kids and one of them is ten',
    'thank you for calling how can i help you today',
    'oh my god that is great',
    'can you hold on one second please',
    'i called three times last week and nobody answered',
    'the payment of two hundred dollars went through on the fifth',
  ];
  for (const t of NEGATIVE_WRITTEN) test(`written: ${t}`, () => assert.deepEqual(detectText(t), []));
  for (const t of NEGATIVE_SPOKEN) test(`spoken: ${t}`, () => assert.deepEqual(spoken(t), []));
});
