// Redaction in flight (stream/liveRedactor.ts) on word lists: finals through the one core with context, a number
// read across two utterances masked whole, the digit-run floor, and partials that never show a forming entity.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Masker } from '../../src/redact/masks.js';
import type { RedactionRule } from '../../src/redact/rules.js';
import { HELD, LiveRedactor } from '../../src/stream/liveRedactor.js';
import type { Word } from '../../src/transcript/types.js';

const rules: RedactionRule[] = [
  { kind: 'USSocialSecurityNumber', maskType: 'Placeholder', setting: '[SSN]' },
  { kind: 'CreditCardNumber', maskType: 'Placeholder', setting: '[CARD]' },
  { kind: 'Person', maskType: 'Placeholder', setting: '[PERSON]' },
];
const DIGITS = /\b(zero|oh|one|two|three|four|five|six|seven|eight|nine)\b/;

function final(text: string, start: number): { start: number; end: number; words: Word[] } {
  const words = text.split(' ').map((word, i) => ({ word, start: start + i * 0.4, end: start + i * 0.4 + 0.35, confidence: 0.9 }));
  return { start, end: start + words.length * 0.4, words };
}
const text = (finals: { words: Word[] }[]) => finals.map((f) => f.words.map((w) => w.word).join(' ')).join(' | ');

describe('live redaction', () => {
  test('a final with an SSN is masked at once; word times of the mask span the value', () => {
    const r = new LiveRedactor(rules, new Masker('k'));
    const out = r.final(final('my social security number is one two three four five six seven eight nine thank you', 0));
    assert.equal(out.length, 1);
    assert.doesNotMatch(text(out), DIGITS);
    assert.match(text(out), /\[SSN\]/);
    assert.deepEqual(out[0].kinds, ['USSocialSecurityNumber']);
  });

  test('a final ending in digits waits for the next one: a card read across two utterances is masked whole', () => {
    const r = new LiveRedactor(rules, new Masker('k'));
    assert.deepEqual(r.final(final('my card number is four one one one one one one one', 0)), [], 'held: the number may go on');
    const out = r.final(final('one one one one one one one one thanks', 5));
    assert.equal(out.length, 2, 'both finals go, in order');
    assert.doesNotMatch(text(out), DIGITS, text(out));
    assert.match(text(out), /\[CARD\]|\[SSN\]/);
  });

  test('a held final goes after the wait (stream time) or at the end of the stream', () => {
    const r = new LiveRedactor(rules, new Masker('k'));
    const held = final('the code is four five six seven', 0);
    assert.deepEqual(r.final(held), []);
    assert.deepEqual(r.tick(held.end + 1), []);
    const out = r.tick(held.end + 3.5);
    assert.equal(out.length, 1);
    assert.doesNotMatch(text(out), DIGITS, 'four spoken digits are masked by the floor');
    assert.deepEqual(r.flush(), []);
  });

  test('the digit-run floor masks a number that recognition broke ("four one one one one mine mine")', () => {
    const r = new LiveRedactor(rules, new Masker('k'));
    const out = r.final(final('and my card number is four one one one one mine mine mine thank you', 0));
    assert.doesNotMatch(text(out), DIGITS, text(out));
  });

  test('partials hold back digits and the words after a name cue; detection masks what it finds', () => {
    const r = new LiveRedactor(rules, new Masker('k'));
    assert.deepEqual(r.partial(['my', 'number', 'is', 'four', 'one', 'one']), ['my', 'number', 'is', HELD]);
    const named = r.partial(['hi', 'my', 'name', 'is', 'john', 'smith']);
    assert.deepEqual(named.slice(0, 4), ['hi', 'my', 'name', 'is']);
    assert.ok(named.length === 5 && [HELD, '[PERSON]'].includes(named[4]), `the name is held or masked: ${named.join(' ')}`);
    // A word after the cue that no name list knows: held while it forms, or masked once the detector takes it for a
    // name (the recognizers do since "this is <word>" cues were added); never shown.
    const unknown = r.partial(['this', 'is', 'qwzx']);
    assert.deepEqual(unknown.slice(0, 2), ['this', 'is']);
    assert.ok(unknown.length === 3 && [HELD, '[PERSON]'].includes(unknown[2]), `held or masked: ${unknown.join(' ')}`);
    assert.deepEqual(r.partial(['i', 'want', 'to', 'pay']), ['i', 'want', 'to', 'pay'], 'plain speech is shown as it is');
  });

  test('without rules nothing is held or masked', () => {
    const r = new LiveRedactor([], new Masker('k'));
    assert.deepEqual(r.partial(['four', 'one']), ['four', 'one']);
    assert.equal(text(r.final(final('four one one one', 0))), 'four one one one');
  });
});
