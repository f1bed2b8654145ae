// Digit look-alikes (issue 36, security review): typed chat and OCR write numbers with letters that look like
// digits; the one normalization step the recognizers read folds them inside digit-dominated tokens only, and the
// mask covers the original characters. Ordinary words with such letters are left as they are.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { foldConfusables } from '../../src/redact/confusables.js';
import { Masker } from '../../src/redact/masks.js';
import { normalizeText } from '../../src/redact/normalize.js';
import { redactText } from '../../src/redact/redactText.js';
import { resolveRules } from '../../src/redact/policy.js';

const rules = resolveRules({ types: ['CreditCardNumber', 'USSocialSecurityNumber'] });
const written = (text: string) => redactText(text, rules, new Masker('k')).text;

describe('digit look-alikes inside a number are read as digits', () => {
  const cases: [string, string][] = [
    ['card 4532\u041E1511283\u041E366 ok', 'card [CREDIT_CARD_NUMBER] ok'], // Cyrillic О
    ['card 4532O151l283O366 ok', 'card [CREDIT_CARD_NUMBER] ok'], // Latin O and l
    ['card 4532 \u03BF151 1283 \u039F366 ok', 'card [CREDIT_CARD_NUMBER] ok'], // Greek omicron, groups
    ['ssn S36-22-8741 ok', 'ssn [US_SOCIAL_SECURITY_NUMBER] ok'],
    ['ssn 5362287I4I ok', 'ssn [US_SOCIAL_SECURITY_NUMBER] ok'],
    ['ssn 536-22-874\u0456 ok', 'ssn [US_SOCIAL_SECURITY_NUMBER] ok'], // Cyrillic і
    ['card \uFF14\uFF15\uFF13\uFF12\uFF10\uFF11\uFF15\uFF11\uFF11\uFF12\uFF18\uFF13\uFF10\uFF13\uFF16\uFF16 ok', 'card [CREDIT_CARD_NUMBER] ok'], // full width
    ['card \u0664\u0665\u0663\u0662\u0660\u0661\u0665\u0661\u0661\u0662\u0668\u0663\u0660\u0663\u0666\u0666 ok', 'card [CREDIT_CARD_NUMBER] ok'], // Arabic-Indic
  ];
  for (const [input, expected] of cases) test(input, () => assert.equal(written(input), expected));

  test('the fold keeps the offsets: the original characters are what is masked', () => {
    const stream = normalizeText('x 4532\u041E151');
    assert.equal(stream.text, 'x 45320151');
    assert.deepEqual([stream.startOf(6), stream.endOf(6)], [6, 7]);
  });
});

describe('ordinary words are not folded', () => {
  for (const text of ['COVID-19', 'B2B', 'in the 1990s', 'ISO 9001', 'K1A 0B1', 'Hello World', 'SOS 911', 'flight BA2490', 'I O U', 'lol 12', 'Model S 3', '|98.85.59.159|']) {
    test(text, () => assert.equal(foldConfusables(text), text));
  }
});
