// Sentiment (issue 18, must-show 6): the per-utterance method (conversation/sentiment.ts: AFINN-165 through npm
// `sentiment`, label = sign of the score) against eval/data/sentiment-labelled.ts, a set of 60 contact-center
// utterances labelled by hand before the method was run and never tuned on (MIT, written for this project: no
// labelled call-transcript set could be had offline from npm). Prints accuracy over the three classes, per class
// recall, and the confusion matrix.
//
//   node --import tsx eval/sentiment.ts
import { scoreText } from '../src/conversation/sentiment.js';
import { SENTIMENT_SET } from './data/sentiment-labelled.js';

const classes = [1, 0, -1] as const;
const name = { 1: 'positive', 0: 'neutral', [-1]: 'negative' } as Record<number, string>;
const confusion = new Map<string, number>();
let right = 0;
for (const [text, gold] of SENTIMENT_SET) {
  const got = scoreText(text).polarity;
  if (got === gold) right++;
  confusion.set(`${gold}:${got}`, (confusion.get(`${gold}:${got}`) ?? 0) + 1);
}
console.log(`accuracy ${right}/${SENTIMENT_SET.length} = ${((right / SENTIMENT_SET.length) * 100).toFixed(1)}% (3 classes)`);
for (const c of classes) {
  const total = SENTIMENT_SET.filter(([, g]) => g === c).length;
  console.log(`${name[c].padEnd(9)} recall ${confusion.get(`${c}:${c}`) ?? 0}/${total}`);
}
console.log('gold \\ got  ' + classes.map((c) => name[c].padStart(9)).join(''));
for (const g of classes) console.log(name[g].padEnd(12) + classes.map((c) => String(confusion.get(`${g}:${c}`) ?? 0).padStart(9)).join(''));
