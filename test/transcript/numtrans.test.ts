// numtrans: spoken numbers to digits on ASR text, with the words every token came from.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatWords } from '../../src/transcript/format.js';
import { numtrans } from '../../src/transcript/numtrans.js';

/** [spoken, expected text, word indices of each number token in order] */
const CASES: [string, string, number[][]][] = [
  // digit runs
  ['one two three', '123', [[0, 1, 2]]],
  ['four one one oh', '4110', [[0, 1, 2, 3]]],
  ['five oh one', '501', [[0, 1, 2]]],
  ['zip code oh two one three nine', 'zip code 02139', [[2, 3, 4, 5, 6]]],
  ['card ending in four four three two', 'card ending in 4432', [[3, 4, 5, 6]]],
  ['my ssn is one two three four five six seven eight nine', 'my ssn is 123456789', [[3, 4, 5, 6, 7, 8, 9, 10, 11]]],
  ['the nine eleven call', 'the 911 call', [[1, 2]]],
  ['zero zero seven', '007', [[0, 1, 2]]],
  // repeated digits
  ['double five', '55', [[0, 1]]],
  ['triple seven', '777', [[0, 1]]],
  ['double oh seven', '007', [[0, 1, 2]]],
  ['four double two one', '4221', [[0, 1, 2, 3]]],
  ['double you', 'double you', []],
  ['triple a rated', 'triple a rated', []],
  // cardinals
  ['twenty three', '23', [[0, 1]]],
  ['it was ten', 'it was 10', [[2]]],
  ['twelve', '12', [[0]]],
  ['one hundred twenty', '120', [[0, 1, 2]]],
  ['one hundred and twenty five dollars', '125 dollars', [[0, 1, 2, 3, 4]]],
  ['a hundred percent', '100 percent', [[0, 1]]],
  ['a thousand dollars', '1000 dollars', [[0, 1]]],
  ['twelve hundred', '1200', [[0, 1]]],
  ['three hundred and', '300 and', [[0, 1]]],
  ['one million two hundred thousand', '1200000', [[0, 1, 2, 3, 4]]],
  ['forty two', '42', [[0, 1]]],
  // years
  ['nineteen eighty four', '1984', [[0, 1, 2]]],
  ['two thousand and five', '2005', [[0, 1, 2, 3]]],
  ['two thousand twenty four', '2024', [[0, 1, 2, 3]]],
  ['twenty twenty four', '2024', [[0, 1, 2]]],
  ['twenty oh five', '2005', [[0, 1, 2]]],
  ['nineteen hundred and ninety nine', '1999', [[0, 1, 2, 3, 4]]],
  ['born in nineteen ninety', 'born in 1990', [[2, 3]]],
  // phone numbers: a digit after "hundred" that starts a run belongs to the run
  ['my number is eight hundred five five five one two one two', 'my number is 8005551212', [[3, 4, 5, 6, 7, 8, 9, 10, 11]]],
  ['one hundred five dollars', '105 dollars', [[0, 1, 2]]],
  // words that stay words
  ['one of them', 'one of them', []],
  ['no one', 'no one', []],
  ['i have two kids', 'i have two kids', []],
  ['one second please', 'one second please', []],
  ['oh my god', 'oh my god', []],
  ['five oh', 'five oh', []],
  ['oh five', 'oh five', []],
  ['j o h n', 'j o h n', []],
  ['and', 'and', []],
  ['', '', []],
  // ordinals
  ['twenty third', '23rd', [[0, 1]]],
  ['twenty first of may', '21st of may', [[0, 1]]],
  ['the twelfth', 'the 12th', [[1]]],
  ['one hundred and first', '101st', [[0, 1, 2, 3]]],
  ['the first time', 'the first time', []],
  ['march third', 'march third', []],
  ['eleventh', '11th', [[0]]],
  ['twenty second', '22nd', [[0, 1]]],
  // hyphens, digits already written, mixed
  ['twenty-three', '23', [[0]]],
  ['room 5 oh one', 'room 501', [[1, 2, 3]]],
  ['call me at five five five one two one two thank you', 'call me at 5551212 thank you', [[3, 4, 5, 6, 7, 8, 9]]],
  ['one two three and four', '123 and four', [[0, 1, 2]]],
];

describe('numtrans', () => {
  for (const [spoken, expected, indices] of CASES) {
    test(`"${spoken}" -> "${expected}"`, () => {
      const words = spoken === '' ? [] : spoken.split(' ');
      const result = numtrans(words);
      assert.equal(result.text, expected);
      assert.deepEqual(result.tokens.filter((t) => t.isNumber).map((t) => t.wordIndices), indices);
      // every word is accounted for exactly once, in order
      assert.deepEqual(result.tokens.flatMap((t) => t.wordIndices), words.map((_, i) => i));
      assert.equal(result.text, result.tokens.map((t) => t.text).join(' '));
    });
  }

  test('robust on case and stray punctuation; words keep their own spelling', () => {
    const result = numtrans(['Four', 'one,', 'One', 'OH.', 'Thanks']);
    assert.equal(result.text, '4110 Thanks');
  });

  test('takes Word objects and an index offset', () => {
    const result = numtrans([{ word: 'it' }, { word: 'is' }, { word: 'double' }, { word: 'five' }], { indexOffset: 10 });
    assert.equal(result.text, 'it is 55');
    assert.deepEqual(result.tokens.map((t) => t.wordIndices), [[10], [11], [12, 13]]);
  });

  test('formatWords: numtrans and punctuate together', () => {
    const f = formatWords('i was born in nineteen eighty four'.split(' '), { numtrans: true, punctuate: true });
    assert.equal(f.text, 'I was born in 1984.');
    assert.deepEqual(f.tokens[f.tokens.length - 1].wordIndices, [4, 5, 6]);
    const plain = formatWords('one two three'.split(' '));
    assert.equal(plain.text, 'one two three');
  });
});
