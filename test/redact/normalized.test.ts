// Values glued to other characters, written in other forms, or spoken: each case of issue 14 is masked through both
// paths that redact text (redactText for written text, redactTranscript for ASR words), and the mask replaces the
// original characters only (what stands around the value is kept).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { detectText, detectWords, RECOGNIZERS } from '../../src/redact/detect.js';
import { Masker } from '../../src/redact/masks.js';
import { docFromText } from '../../src/redact/recognizers/doc.js';
import { recordRules } from '../../src/redact/recordRules.js';
import { redactText, wordSpans } from '../../src/redact/redactText.js';
import { redactTranscript } from '../../src/redact/redactTranscript.js';
import { resolveRules } from '../../src/redact/policy.js';
import { findSpans } from '../../src/redact/spans.js';
import type { Transcript } from '../../src/transcript/types.js';

const CARD = '[CREDIT_CARD_NUMBER]';
const SSN = '[US_SOCIAL_SECURITY_NUMBER]';
const rules = resolveRules({ types: ['CreditCardNumber', 'USSocialSecurityNumber'] });
const written = (text: string, r = rules) => redactText(text, r, new Masker('k')).text;

function transcriptOf(words: string[]): Transcript {
  return {
    model: 'test', engine: 'test', language: 'en-us', audioSeconds: 30, sourceSampleRate: 16000, processingSeconds: 0,
    channels: [{ channel: 0, segments: [], words: words.map((word, i) => ({ word, start: i, end: i + 0.8, confidence: 0.9 })) }],
  };
}
const spoken = (words: string[], r = rules) => redactTranscript(transcriptOf(words), r, new Masker('k')).transcript.channels[0].words.map((w) => w.word).join(' ');
const digitsLeft = (s: string) => (s.match(/\d/g) ?? []).length;

describe('written values glued to other characters are masked, and only they', () => {
  const cases: [string, string][] = [
    ['card:4111111111111111', `card:${CARD}`],
    ['card=4111111111111111', `card=${CARD}`],
    ['cc4111111111111111', `cc${CARD}`],
    ['ssn:123-45-6789', `ssn:${SSN}`],
    ['id/123-45-6789', `id/${SSN}`],
    ['4111_1111_1111_1111', CARD],
    ['４１１１１１１１１１１１１１１１', CARD],
    ['4111 1111 1111 1111/27', CARD],
    ['4111111111111111 5500000000000004', CARD],
    ['4111111111111111,5500000000000004', CARD],
  ];
  for (const [input, expected] of cases) {
    test(input, () => {
      const out = written(`my number is ${input} thanks`);
      assert.equal(out, `my number is ${expected} thanks`);
    });
  }

  test('full-width digits are masked in the original characters, the text around them kept', () => {
    const out = written('ｃａｒｄ ４１１１－１１１１－１１１１－１１１１ ok');
    assert.equal(digitsLeft(out.normalize('NFKC')), 0);
    assert.ok(out.startsWith('ｃａｒｄ '), out);
    assert.ok(out.endsWith(' ok'), out);
  });

  test('other scripts\' decimal digits count as digits (Arabic-Indic)', () => {
    const out = written('ssn ١٢٣-٤٥-٦٧٨٩ ok');
    assert.equal(out, `ssn ${SSN} ok`);
  });

  test('two card numbers back to back: neither is left whole', () => {
    for (const sep of [' ', '', ';', ' / ', '\n']) {
      const out = written(`cards 4111111111111111${sep}5500000000000004 end`);
      assert.equal(digitsLeft(out), 0, JSON.stringify(out));
    }
  });

  test('a card with its expiry glued on shows none of its digits', () => {
    assert.equal(digitsLeft(written('card 4111 1111 1111 1111/27')), 0);
  });
});

describe('the same values as ASR words', () => {
  const cases: [string[], string][] = [
    [['card:4111111111111111'], CARD],
    [['cc4111111111111111'], CARD],
    [['ssn:123-45-6789'], SSN],
    [['id/123-45-6789'], SSN],
    [['4111_1111_1111_1111'], CARD],
    [['４１１１', '１１１１', '１１１１', '１１１１'], CARD],
    [['4111', '1111', '1111', '1111/27'], CARD],
    [['4111111111111111', '5500000000000004'], CARD],
    ['four one one one one one one one one one one one one one one one'.split(' '), CARD],
    ['one two three dash four five dash six seven eight nine'.split(' '), SSN],
  ];
  for (const [words, expected] of cases) {
    test(words.join(' '), () => {
      assert.equal(spoken(['my', 'number', 'is', ...words, 'thanks']), `my number is ${expected} thanks`);
    });
  }
});

describe('kinds are restricted before overlaps are resolved (one pipeline for jobs and records)', () => {
  const ssnOnly = resolveRules({ types: ['USSocialSecurityNumber'] });
  test('nine spoken digits after "account number" on an SSN-only job', () => {
    assert.equal(spoken('my account number is one two three four five six seven eight nine'.split(' '), ssnOnly), `my account number is ${SSN}`);
  });
  test('the same nine digits written, through redactText', () => {
    assert.equal(written('my account number is 123456789', ssnOnly), `my account number is ${SSN}`);
  });
  test('a phone-looking ten-digit run next to an SSN on an SSN-only job leaves no run of nine digits', () => {
    const out = written('call 123-45-6789, 555-123-4567 now', ssnOnly);
    assert.ok(!/\d{3}\D?\d{2}\D?\d{4}/.test(out), out);
  });
});

describe('coverage is the union of overlapping detections', () => {
  test('a less confident detection that reaches further keeps what only it covers', () => {
    // The phone recognizer and the digit net both see this run; whatever names it, no digit stays.
    const all = resolveRules({ types: ['PhoneNumber', 'CreditCardNumber', 'USSocialSecurityNumber'] });
    const out = written('numbers 555-123-4567 8901 2345 6789 end', all);
    assert.equal(digitsLeft(out), 0, out);
  });
  test('detectText reports every character any detection covered', () => {
    const text = 'ref 4111 1111 1111 1111 done';
    const found = detectText(text);
    const covered = new Set<number>();
    for (const d of found) for (let i = d.start; i < d.end; i++) covered.add(i);
    for (let i = text.indexOf('4111'); i < text.indexOf(' done'); i++) if (/\d/.test(text[i])) assert.ok(covered.has(i), `char ${i}`);
  });
});

describe('no recognizer can break redaction', () => {
  test('a street word at the start of an utterance (the address recognizer threw)', () => {
    const address = resolveRules({ types: ['Address'] });
    assert.doesNotThrow(() => wordSpans(['oak', 'street'], address));
    assert.doesNotThrow(() => detectWords(['oak', 'street', 'is', 'nice']));
    assert.doesNotThrow(() => spoken(['oak', 'street'], address));
    assert.doesNotThrow(() => written('Oak Street', address));
  });

  test('a recognizer that throws fails closed: the whole text is masked under its kind', () => {
    const person = RECOGNIZERS.find((r) => r.name === 'person')!;
    const original = person.run;
    person.run = () => {
      throw new Error('broken recognizer');
    };
    try {
      const r = resolveRules({ types: ['Person', 'Email'] });
      assert.equal(written('hello there, general', r), '[PERSON]');
      assert.equal(spoken(['hello', 'there'], r), '[PERSON]');
      // A record rule's confidence floor does not drop it either.
      const custom = recordRules({ redactionTypes: [{ rules: [{ type: 'Person', confidence: 99 }] }] });
      const spans = findSpans(docFromText('hello there'), [], custom);
      assert.equal(spans.length, 1);
      // Kinds not asked for do not run it: nothing happens to text redacted for other kinds.
      assert.equal(written('hello there', resolveRules({ types: ['Email'] })), 'hello there');
    } finally {
      person.run = original;
    }
  });

  test('the digit net passes a record rule\'s confidence threshold', () => {
    const custom = recordRules({ redactionTypes: [{ rules: [{ type: 'CreditCardNumber', confidence: 99 }] }] });
    const out = redactText('ref 7777 7777 7777 7777 ok', [], new Masker('k'), custom).text;
    assert.equal(digitsLeft(out), 0, out);
  });
});
