// redactAcrossMessages (issue 36 item 5): a real-call message redacted with its speaker's kept messages. Each
// answer is final (it cannot be recalled), so a digit group at a message's end is masked, and so is the group
// that continues it at the start of the next message; a value completed across messages rewrites the kept ones.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { redactAcrossMessages } from '../../src/redact/conversationMessages.js';
import { Masker } from '../../src/redact/masks.js';
import { resolveRules } from '../../src/redact/policy.js';

const rules = resolveRules({ types: ['CreditCardNumber', 'USSocialSecurityNumber', 'Person'] });
const CARD = '[CREDIT_CARD_NUMBER]';
const SSN = '[US_SOCIAL_SECURITY_NUMBER]';

/** The messages of one speaker in turn: what each answer said, and what is kept at the end. */
function conversation(texts: string[], r = rules): { answers: string[]; kept: string[] } {
  let kept: string[] = [];
  let continues: string | undefined;
  const answers: string[] = [];
  for (const text of texts) {
    const step = redactAcrossMessages(kept, text, r, new Masker(''), continues);
    kept = kept.map((k, i) => step.earlier[i] ?? k);
    kept.push(step.text);
    answers.push(step.text);
    continues = step.held;
  }
  return { answers, kept };
}

describe('a number split over messages', () => {
  test('a card read in three messages after its cue: every group masked as a card, the words around kept', () => {
    const { answers } = conversation(['my card number is 4532 0151', '1283 0366', '8741', 'thanks that is all']);
    assert.deepEqual(answers, [`my card number is ${CARD}`, CARD, CARD, 'thanks that is all']);
  });

  test('a social security number in two messages', () => {
    const { answers } = conversation(['my social is 536', '22 8741 ok']);
    assert.deepEqual(answers, [`my social is ${SSN}`, `${SSN} ok`]);
  });

  test('spoken digits at the end of a message (two or more) are held the same way', () => {
    const { answers } = conversation(['my card number is four five three two', 'zero one five one thanks']);
    assert.doesNotMatch(answers.join(' '), /four|five|three|zero|one/);
  });

  test('hesitations after the group: it still ends the message', () => {
    const { answers } = conversation(['my card is 4532 0151 um', '1283 0366 8741']);
    assert.doesNotMatch(answers.join(' '), /\d/);
  });

  test('a kept message is rewritten when a later one completes the number it began', () => {
    // Kept before any numeric kind was asked (answered as sent), then completed under the card rule.
    let step = redactAcrossMessages([], 'my card is 4532 0151 1283', [], new Masker(''), undefined);
    step = redactAcrossMessages([step.text], '0366 8741 yes', rules, new Masker(''), undefined);
    assert.equal(step.earlier[0], `my card is ${CARD}`);
    assert.equal(step.text, `${CARD} yes`);
  });
});

describe('partials', () => {
  test('every digit group of a partial is masked (the words are still forming), not only the one at its end', () => {
    const step = redactAcrossMessages([], 'my card is 4532 0151 and then 1283', rules, new Masker(''), undefined, true);
    assert.doesNotMatch(step.text, /\d/);
    assert.match(step.text, /^my card is \[CREDIT_CARD_NUMBER\] and then \[CREDIT_CARD_NUMBER\]$/);
  });
});

describe('what is left alone', () => {
  test('numbers inside a message, a single spoken digit word at the end, and a message after a finished number', () => {
    const { answers } = conversation(['I was born in 1990 so yes', 'that is the one', 'thanks']);
    assert.deepEqual(answers, ['I was born in 1990 so yes', 'that is the one', 'thanks']);
  });

  test('without a kind said as digits nothing is held', () => {
    const { answers } = conversation(['call me at 555 0199', '12 ok'], resolveRules({ types: ['Person'] }));
    assert.deepEqual(answers, ['call me at 555 0199', '12 ok']);
  });

  test('a written digit at the end is masked all the same (the price of an answer that cannot be recalled)', () => {
    assert.deepEqual(conversation(['press 1']).answers, [`press ${SSN}`]);
  });
});
