// Windows marked live with pause/resume (stream/markedWindows.ts), on word lists: words inside are masked
// whatever they were, open windows reach to the end, marks for the job rounded outwards, and refusals.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ServiceError } from '../../src/errors.js';
import type { RedactionRule } from '../../src/redact/rules.js';
import { MarkedWindows } from '../../src/stream/markedWindows.js';
import type { Word } from '../../src/transcript/types.js';

const words = (text: string, start: number): Word[] => text.split(' ').map((word, i) => ({ word, start: start + i, end: start + i + 0.8, confidence: 0.9 }));
const text = (w: Word[]) => w.map((x) => x.word).join(' ');
const at = (t: number) => () => t;

describe('marked windows of a live stream', () => {
  test('an open window masks every word from its start on, a run as one mask; words before it are kept', () => {
    const m = new MarkedWindows(1);
    assert.equal(m.pause('creditcardnumber', undefined, at(2.5)), 'CreditCardNumber', 'kind names in any letter case');
    const out = m.mask(0, words('my card is four one one one', 0), []);
    assert.equal(text(out.words), 'my card [CREDIT_CARD_NUMBER]', 'the word cut by the start (2-2.8) is masked too');
    assert.deepEqual(out.kinds, ['CreditCardNumber']);
    assert.ok(m.overlaps(0, 100, 101), 'open: reaches to the end of the stream');
    assert.deepEqual(m.marks(), [], 'an open window is not a mark yet');
  });

  test("the project's mask for the kind is used (Placeholder); Remove drops the words; no kind: SENSITIVE", () => {
    const rules: RedactionRule[] = [{ kind: 'CreditCardNumber', maskType: 'Placeholder', setting: '[CARD]' }, { kind: 'Person', maskType: 'Remove', setting: '' }];
    const card = new MarkedWindows(1);
    card.pause('CreditCardNumber', 0, at(0));
    assert.equal(text(card.mask(0, words('four one', 0), rules).words), '[CARD]');
    const person = new MarkedWindows(1);
    person.pause('Person', 0, at(0));
    assert.deepEqual(person.mask(0, words('john smith', 0), rules).words, []);
    const sensitive = new MarkedWindows(1);
    sensitive.pause(undefined, 0, at(0));
    assert.equal(text(sensitive.mask(0, words('four one', 0), rules).words), '[SENSITIVE]');
  });

  test('resume closes the window: later words are kept, a final arriving late is still masked inside it', () => {
    const m = new MarkedWindows(2);
    m.pause('CreditCardNumber', 1, at(3));
    m.resume(1, at(5.9004)); // x starts at 6: after it
    assert.equal(text(m.mask(1, words('a b c four one one x y', 0), []).words), 'a b c [CREDIT_CARD_NUMBER] x y');
    assert.equal(text(m.mask(0, words('a b c four one one x y', 0), []).words), 'a b c four one one x y', 'the other channel is not paused');
    assert.deepEqual(m.marks(), [{ start: 3, end: 5.901, channel: 1, kind: 'CreditCardNumber' }], 'rounded outwards to the ms');
  });

  test('a pause with no channel covers every channel at each one\'s own time; closeAll ends open windows; empty ones are dropped', () => {
    const m = new MarkedWindows(2);
    m.pause(undefined, undefined, (c) => (c === 0 ? 1 : 1.5));
    m.resume(0, at(1)); // nothing said between: empty
    m.closeAll(9);
    assert.deepEqual(m.marks(), [{ start: 1.5, end: 9, channel: 1 }]);
  });

  test('pausing again: the same kind goes on, another kind splits the window without a gap', () => {
    const m = new MarkedWindows(1);
    m.pause('CreditCardNumber', 0, at(1));
    m.pause('CreditCardNumber', 0, at(2));
    m.pause('USSocialSecurityNumber', 0, at(3));
    m.resume(undefined, at(4));
    assert.deepEqual(m.marks(), [
      { start: 1, end: 3, channel: 0, kind: 'CreditCardNumber' },
      { start: 3, end: 4, channel: 0, kind: 'USSocialSecurityNumber' },
    ]);
  });

  test('refusals: a name that is not a kind (or "all"), a channel the stream lacks (400); resume with nothing open (409)', () => {
    const m = new MarkedWindows(1);
    const refused = (run: () => unknown, kind: string, pattern: RegExp) =>
      assert.throws(run, (e: unknown) => e instanceof ServiceError && e.kind === kind && pattern.test(e.message));
    refused(() => m.pause('CardNumberz', 0, at(0)), 'invalid', /"CardNumberz" is not an entity kind/);
    refused(() => m.pause('all', 0, at(0)), 'invalid', /not an entity kind/);
    refused(() => m.pause('CreditCardNumber', 1, at(0)), 'invalid', /1 channel .*no channel 1/);
    refused(() => m.resume(undefined, at(0)), 'conflict', /no window is open/);
    refused(() => m.resume(3, at(0)), 'invalid', /no channel 3/);
    assert.deepEqual(m.marks(), [], 'nothing was opened by a refused pause');
  });
});
