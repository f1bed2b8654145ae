// Detection is linear in the input's length, lower-case text without punctuation included: the intersection
// recognizer asked "is there no capital in the whole text?" for every word it looked at, a scan of all of the text
// each time ("on elm street and" repeated: 4 times the time for twice the words). No wall time here: the work
// measured is the characters the regular expressions scan (every RegExp test, match, replace and split goes through
// RegExp.prototype.exec), a count that is the same on every machine; twice the words must be about twice the work.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { detectText, detectWords } from '../../src/redact/detect.js';

/** Characters scanned by regular expressions while `fn` runs: to the end of a match, or of the text without one. */
function regexWork(fn: () => void): number {
  const exec = RegExp.prototype.exec;
  let chars = 0;
  RegExp.prototype.exec = function (this: RegExp, s: string) {
    const from = this.global || this.sticky ? this.lastIndex : 0;
    const m = exec.call(this, s);
    // sticky: tried at one place only
    chars += this.sticky ? (m ? m[0].length : 1) : m ? m.index + m[0].length - from : String(s).length - from;
    return m;
  };
  try {
    fn();
  } finally {
    RegExp.prototype.exec = exec;
  }
  return chars;
}

const repeated = (phrase: string, words: number) => {
  const w = phrase.split(' ');
  return Array.from({ length: words }, (_, i) => w[i % w.length]);
};

const SHAPES = ['my sister the one on elm street and', 'on elm street and', 'corner of elm and fifth', 'at fifth and pine and', 'the one on elm street', 'my sister and'];

describe('detection work is linear on long lower-case text without punctuation', () => {
  detectText('warm up: my sister on Elm Street and at fifth and pine', { tagger: true });
  for (const phrase of SHAPES) {
    for (const tagger of [true, false]) {
      test(`"${phrase}" repeated, tagger ${tagger ? 'on' : 'off'}: twice the words, about twice the work`, () => {
        const work = (n: number) => regexWork(() => detectText(repeated(phrase, n).join(' '), { tagger }));
        const [small, large] = [work(1500), work(3000)];
        assert.ok(large / small < 2.5, `written: ${small} characters scanned at 1500 words, ${large} at 3000 (×${(large / small).toFixed(2)})`);
        const said = (n: number) => regexWork(() => detectWords(repeated(phrase, n), { tagger }));
        const [s1, s2] = [said(1500), said(3000)];
        assert.ok(s2 / s1 < 2.5, `said: ${s1} characters scanned at 1500 words, ${s2} at 3000 (×${(s2 / s1).toFixed(2)})`);
      });
    }
  }
});
