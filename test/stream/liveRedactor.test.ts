// Redaction in flight (stream/liveRedactor.ts) on word lists: finals through the one core with context, a number
// read across two utterances masked whole, the digit-run floor, and partials that never show a forming entity.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Masker } from '../../src/redact/masks.js';
import type { RedactionRule } from '../../src/redact/rules.js';
import { HELD, LiveRedactor } from '../../src/stream/liveRedactor.js';
import { NumberCues } from '../../src/redact/numberCues.js';
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

  test('after a number cue on either channel, digit words are masked whatever recognition made of the number', () => {
    // The engine's own reading of a card number read alone (seen on festival speech): too few digits for the floor.
    const cues = new NumberCues(['CreditCardNumber', 'USSocialSecurityNumber', 'Person']);
    const agent = new LiveRedactor(rules, new Masker('k'), cues);
    const caller = new LiveRedactor(rules, new Masker('k'), cues);
    const asked = final('can i have the card number please', 0);
    cues.hear(0, asked.words);
    assert.equal(text(agent.final(asked)), 'can i have the card number please', 'the cue itself is not masked');
    const answer = final('sure it is four land mine mine won to and then one', 3);
    cues.hear(1, answer.words);
    const out = [...caller.final(answer), ...caller.flush()];
    assert.doesNotMatch(text(out), DIGITS, text(out));
    assert.doesNotMatch(text(out), /\b(won|to)\b/, 'look-alikes of digits are masked too');
    assert.match(text(out), /sure it is \[CARD\] land \[CARD\]/, 'only digit-shaped words: the rest is shown');
    assert.ok(out.every((f) => f.kinds.includes('CreditCardNumber')));
  });

  test('no cue, or a cue past its bound: a digit word said in passing is shown', () => {
    const cues = new NumberCues(['CreditCardNumber', 'USSocialSecurityNumber']);
    const r = new LiveRedactor(rules, new Masker('k'), cues);
    const plain = final('i have two kids and one dog', 0);
    cues.hear(0, plain.words);
    assert.equal(text(r.final(plain)), 'i have two kids and one dog');
    const cue = final('my card number is', 10);
    cues.hear(0, cue.words);
    r.final(cue);
    const soon = final('it is two', 12);
    cues.hear(0, soon.words);
    assert.doesNotMatch(text([...r.final(soon), ...r.flush()]), DIGITS, 'inside the bound: masked');
    const late = final('we have two kids okay', 10 + 31 + 5);
    cues.hear(0, late.words);
    assert.equal(text(r.final(late)), 'we have two kids okay', 'a card cue lasts 30 s');
  });

  test('a lead-in split across two finals is still heard; cues of kinds not redacted are not listened for', () => {
    const cues = new NumberCues(['CreditCardNumber']);
    const r = new LiveRedactor(rules, new Masker('k'), cues);
    for (const f of [final('yes my card', 0), final('number is four land', 2)]) cues.hear(1, f.words);
    assert.equal(cues.kindAt(3), 'CreditCardNumber');
    const ssnOnly = new NumberCues(['Person']);
    ssnOnly.hear(0, final('my card number is four', 0).words);
    assert.equal(ssnOnly.listening, false);
    assert.equal(ssnOnly.kindAt(2), undefined);
    assert.ok(r);
  });
});
