// Properties of the redaction core over generated input (fast-check): detection and span finding never throw,
// whatever the text or words; and a seeded run of 9 or 13-19 digits (Luhn-valid or not), cut into groups by
// any short separators, glued to any surrounding characters, in ASCII or full-width digits, written or as ASR
// words, is masked when the SSN and card kinds are on: no run of 9 of its digits is left in the output.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { detectText, detectWords } from '../../src/redact/detect.js';
import { ENTITY_KINDS } from '../../src/redact/entityKinds.js';
import { luhn } from '../../src/redact/recognizers/digitRuns.js';
import { Masker } from '../../src/redact/masks.js';
import { redactText, wordSpans } from '../../src/redact/redactText.js';
import { resolveRules } from '../../src/redact/policy.js';

const ALL = resolveRules({ types: [...ENTITY_KINDS] });
const NUMBERS = resolveRules({ types: ['USSocialSecurityNumber', 'CreditCardNumber'] });
const RUNS = 150;

/** Text with no digit of any script, before or after NFKC (so the only digits are the seeded ones). */
const noDigits = (s: string) => !/\p{N}/u.test(s) && !/\p{N}/u.test(s.normalize('NFKC'));
const surrounding = fc.oneof(
  fc.constantFrom('', 'card:', 'card=', 'cc', 'ssn:', 'id/', 'my card is ', 'social ', '#', '(', 'x', 'account number ', 'ｃａｒｄ：'),
  fc.string({ unit: 'grapheme', maxLength: 12 }).filter(noDigits),
);
const trailing = fc.oneof(fc.constantFrom('', '.', ' thanks', '/', 'x', ')', ' ok?', '/ab', 'abc'), fc.string({ unit: 'grapheme', maxLength: 12 }).filter(noDigits));
/** What may stand between two groups of one number: at most a few characters, none a letter or digit. */
const separator = fc.constantFrom('', ' ', '-', '_', '/', '.', ':', ',', '  ', ' - ', '\u00a0', '\u3000', '|', '*', '#', '\t', '\n', '–', '·', '‐', '／');

/** 9 or 13-19 random digits, half of them Luhn-valid. */
const seededDigits = fc
  .tuple(fc.constantFrom(9, 13, 14, 15, 16, 17, 18, 19), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 19, maxLength: 19 }), fc.boolean())
  .map(([n, pool, makeLuhn]) => {
    let digits = pool.slice(0, n).join('');
    if (makeLuhn) {
      for (let d = 0; d <= 9 && !luhn(digits); d++) digits = digits.slice(0, -1) + d;
    }
    return digits;
  });

/** The digits cut into groups of 1-6. */
const grouped = seededDigits.chain((digits) =>
  fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 19, maxLength: 19 }).map((sizes) => {
    const groups: string[] = [];
    let at = 0;
    for (const size of sizes) {
      if (at >= digits.length) break;
      groups.push(digits.slice(at, at + size));
      at += size;
    }
    return { digits, groups };
  }),
);

const FULL_WIDTH = (s: string) => s.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)));
const SPOKEN = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/** True when some 9 consecutive digits of `seed` appear in order in what is left of the output's digits. */
function leaks(seed: string, outputDigits: string): boolean {
  for (let i = 0; i + 9 <= seed.length; i++) if (outputDigits.includes(seed.slice(i, i + 9))) return true;
  return false;
}
const digitsOfText = (s: string) => s.normalize('NFKC').replace(/\D/g, '');

describe('property: detection never throws', () => {
  test('over any text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 80 }), fc.string({ maxLength: 80 })), (text) => {
        detectText(text);
        redactText(text, ALL, new Masker('k'));
      }),
      { numRuns: RUNS },
    );
  });

  test('over any word array', () => {
    const word = fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.constantFrom('oak', 'street', 'one', 'oh', 'at', 'dot', 'com', 'my', 'name', 'is', 'live', 'on', 'box', 'po', 'apt', 'x', 'ext', '4111', 'uh', 'double', 'hundred', 'thousand', 'a', 'and', 'social', 'card', 'dash'));
    fc.assert(
      fc.property(fc.array(word, { maxLength: 30 }), (words) => {
        detectWords(words);
        wordSpans(words, ALL);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('property: a seeded SSN- or card-length digit run is masked', () => {
  test('written, with any separators between its groups and anything around it', () => {
    fc.assert(
      fc.property(grouped, fc.array(separator, { minLength: 19, maxLength: 19 }), surrounding, trailing, fc.boolean(), ({ digits, groups }, seps, before, after, wide) => {
        let value = groups.map((g, i) => (i === 0 ? g : seps[i] + g)).join('');
        if (wide) value = FULL_WIDTH(value);
        const text = `${before}${value}${after}`;
        const out = redactText(text, NUMBERS, new Masker('k')).text;
        assert.ok(!leaks(digits, digitsOfText(out)), `${JSON.stringify(text)} -> ${JSON.stringify(out)}`);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  test('as ASR words: written groups, spoken digits, glued punctuation and fillers', () => {
    const filler = fc.constantFrom('my', 'card', 'number', 'is', 'the', 'account', 'social', 'thanks', 'uh', 'ok', 'so');
    const between = fc.constantFrom<string[]>([], [], ['uh'], ['dash']);
    const spokenForm = fc.constantFrom('digits', 'words', 'mixed', 'wide');
    fc.assert(
      fc.property(grouped, fc.array(between, { minLength: 19, maxLength: 19 }), fc.array(filler, { maxLength: 4 }), fc.array(filler, { maxLength: 4 }), spokenForm, fc.constantFrom('', ',', '-', '.'), ({ digits, groups }, gaps, before, after, form, glue) => {
        const words: string[] = [...before];
        groups.forEach((g, i) => {
          if (i > 0) words.push(...gaps[i]);
          const asWords = form === 'words' || (form === 'mixed' && i % 2 === 1);
          if (asWords) words.push(...[...g].map((d) => SPOKEN[Number(d)]));
          else words.push((form === 'wide' ? FULL_WIDTH(g) : g) + (i < groups.length - 1 ? glue : ''));
        });
        words.push(...after);
        const spans = wordSpans(words, NUMBERS);
        const masked = new Set<number>();
        for (const s of spans) for (let w = s.wordStart; w < s.wordEnd; w++) masked.add(w);
        const left = words
          .map((w, i) => (masked.has(i) ? '' : SPOKEN.includes(w) ? String(SPOKEN.indexOf(w)) : digitsOfText(w)))
          .join('');
        assert.ok(!leaks(digits, left), `${JSON.stringify(words)} -> left ${left}`);
      }),
      { numRuns: RUNS * 2 },
    );
  });
});
