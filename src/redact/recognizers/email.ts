// Email addresses: written (john.smith@example.com) and spoken ("john dot smith at example dot com",
// "j smith at gmail dot com", "john underscore smith at yahoo dot co dot uk").
import { fromChars, fromWords, type Recognizer } from './doc.js';
import type { Detection } from '../types.js';

const LOCAL = /[A-Za-z0-9._%+-]/;
const DOMAIN = /[A-Za-z0-9.-]/;
const ALPHA = /[A-Za-z]/;
/** How far the spoken form is followed from "at" (words): a spoken address is short. */
const SPOKEN_REACH = 24;

/**
 * Written addresses, as /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/ would find them, but anchored on each "@"
 * and read outwards: that regex retries every start in a long run of letters, quadratic on a long word.
 */
function writtenEmails(text: string): [number, number][] {
  const out: [number, number][] = [];
  let floor = 0;
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > floor && LOCAL.test(text[start - 1])) start--;
    if (start === at) continue;
    let reach = at + 1;
    while (reach < text.length && DOMAIN.test(text[reach])) reach++;
    // The last "." (after at least one domain character) followed by two letters or more.
    let end = -1;
    for (let dot = reach - 1; dot > at + 1 && end < 0; dot--) {
      if (text[dot] !== '.' || !ALPHA.test(text[dot + 1] ?? '') || !ALPHA.test(text[dot + 2] ?? '')) continue;
      end = dot + 1;
      while (end < reach && ALPHA.test(text[end])) end++;
    }
    if (end < 0) continue;
    out.push([start, end]);
    floor = end;
  }
  return out;
}
const TLD = new Set(['com', 'net', 'org', 'edu', 'gov', 'io', 'co', 'us', 'uk', 'info', 'biz', 'me', 'ca', 'de', 'fr', 'mil', 'ai', 'app', 'dev', 'tv', 'ly', 'xyz']);
const CONNECT = new Set(['dot', 'underscore', 'dash', 'hyphen', 'period', 'point']);
const STOP = new Set([
  'is', 'my', 'email', 'e-mail', 'mail', 'address', 'the', 'at', 'to', 'me', 'send', 'it', "it's", 'its', 'and', 'or',
  'please', 'you', 'can', "that's", 'thats', 'was', 'it', 'uh', 'um', 'your', 'a', 'an', 'of', 'on', 'for', 'use', 'us',
  'reach', 'contact', 'i', 'we', 'be', 'would', 'will', 'so', 'yes', 'yeah', 'ok', 'okay', 'sure', 'from', 'with', 'by',
]);

export const emailRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  for (const [start, end] of writtenEmails(doc.text)) out.push(fromChars(doc, 'Email', start, doc.text[end - 1] === '.' ? end - 1 : end, 0.95, 'email'));
  const w = doc.words.map((x) => x.norm);
  for (let i = 1; i < w.length - 1; i++) {
    if (w[i] !== 'at') continue;
    // domain: name (dot name)* dot tld, or a written domain "gmail.com"
    let j = i + 1;
    let end = -1;
    if (/^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/.test(w[j])) end = j + 1;
    else {
      while (j + 2 < w.length + 1 && j - i < SPOKEN_REACH && /^[a-z0-9-]+$/.test(w[j] ?? '') && (w[j + 1] === 'dot' || w[j + 1] === 'period' || w[j + 1] === 'point') && /^[a-z0-9-]+$/.test(w[j + 2] ?? '')) {
        if (TLD.has(w[j + 2])) end = j + 3;
        j += 2;
      }
    }
    if (end < 0) continue;
    // local part: the word before "at", extended backwards over connectors and what they join, single letters,
    // digits, and at most one more plain word
    let s = i - 1;
    if (STOP.has(w[s]) && !/^[a-z]$/.test(w[s])) continue;
    let plain = 0;
    while (s - 1 >= 0 && i - s < SPOKEN_REACH) {
      const prev = w[s - 1];
      if (CONNECT.has(prev) && s - 2 >= 0 && !STOP.has(w[s - 2])) {
        s -= 2;
        continue;
      }
      if (/^[a-z]$|^\d+$/.test(prev) && prev !== 'a' && prev !== 'i') {
        s -= 1;
        continue;
      }
      if (!STOP.has(prev) && plain < 1 && !CONNECT.has(prev) && doc.spoken) {
        plain++;
        s -= 1;
        continue;
      }
      break;
    }
    out.push(fromWords(doc, 'Email', s, end, 0.9, 'email'));
    i = end - 1;
  }
  return out;
};
