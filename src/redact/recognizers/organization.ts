// Organizations (an optional kind: redacted only when named): a name ending in a company word ("Acme Insurance
// Group", "Northwind Traders Inc.", "first national bank"), "bank of X" / "university of X", the company after a
// cue ("I work for ...", "calling from ...", "thank you for calling ..."), and compromise's organizations() on
// written text.
import { matchesIn } from './compromiseWindows.js';
import { endsClause, fromChars, fromWords, type Doc, type Recognizer } from './doc.js';
import { STOP } from './stopwords.js';
import type { Detection } from '../types.js';
import { caseless } from './caseless.js';

const SUFFIX = new Set(`inc incorporated llc llp ltd limited corp corporation company co gmbh ag plc sa bv nv pty bank
insurance group holdings partners associates foundation university college hospital clinic airlines airways wireless
telecom motors solutions services technologies systems industries enterprises labs laboratories pharmacy
pharmaceuticals logistics consulting realty mutual trust union`.split(/\s+/));
/** Company words that need a capitalized name before them in writing ("the bank" is no organization). */
const OF_HEADS = new Set(['bank', 'university', 'college', 'institute']);
const CUE_AFTER = /^(work for|works for|working for|worked for|work at|works at|calling from|call from|employed by|employer is|thank you for calling|thanks for calling|welcome to)$/;

const isCap = (doc: Doc, i: number) => /^\p{Lu}/u.test(doc.words[i]?.raw.replace(/^[^\p{L}]+/u, '') ?? '');
const nameish = (doc: Doc, i: number) => {
  const w = doc.words[i];
  return w !== undefined && /^[\p{L}\d&][\p{L}\d&'.-]*$/u.test(w.norm) && !STOP.has(w.norm);
};

export const organizationRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  const w = doc.words.map((x) => x.norm);
  const lower = caseless(doc);
  const ok = (i: number) => nameish(doc, i) && (lower || isCap(doc, i));
  for (let k = 1; k < w.length; k++) {
    // "Acme Insurance Group", "northwind traders inc"
    if (SUFFIX.has(w[k]) && (lower || isCap(doc, k))) {
      let j = k;
      while (j - 1 >= 0 && k - j < 4 && ok(j - 1) && !endsClause(doc, j - 1)) j--;
      if (j < k && !(lower && k - j === 1 && STOP.has(w[j]))) out.push(fromWords(doc, 'Organization', j, k + 1, lower ? 0.6 : 0.75, 'organization'));
    }
  }
  for (let i = 0; i + 2 < w.length; i++) {
    // "Bank of America", "university of texas"
    if (OF_HEADS.has(w[i]) && w[i + 1] === 'of' && ok(i + 2) && (lower || isCap(doc, i))) {
      let e = i + 3;
      while (e < i + 5 && ok(e) && !endsClause(doc, e - 1)) e++;
      out.push(fromWords(doc, 'Organization', i, e, 0.7, 'organization'));
    }
  }
  for (let i = 1; i < w.length; i++) {
    // "I work for Northwind", "thank you for calling acme"
    const two = `${w[i - 1]} ${w[i]}`;
    const four = w.slice(Math.max(0, i - 3), i + 1).join(' ');
    if (!CUE_AFTER.test(two) && !CUE_AFTER.test(four)) continue;
    let s = i + 1;
    if (w[s] === 'the') s++;
    let e = s;
    while (e < s + 3 && ok(e) && !endsClause(doc, e - 1)) e++;
    if (e > s) out.push(fromWords(doc, 'Organization', s, e, 0.65, 'organization-cue'));
  }
  if (!doc.spoken) {
    for (const o of matchesIn(doc.text, (d) => d.organizations())) {
      if (o.offset.length < 2) continue;
      const text = doc.text.slice(o.offset.start, o.offset.start + o.offset.length).replace(/[^\p{L}\p{N}]+$/u, '');
      if (text.length > 1) out.push(fromChars(doc, 'Organization', o.offset.start, o.offset.start + text.length, 0.6, 'organization-compromise'));
    }
  }
  return out;
};
