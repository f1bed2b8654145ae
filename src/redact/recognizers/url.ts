// Web addresses (an optional kind, URL: redacted only when named): written ("https://example.com/a", "www.example.com",
// "smithfamily.org") and spoken ("w w w dot smith family dot com", "h t t p s colon slash slash example dot com slash
// help", "my site is jane doe dot net"). An email address is not a web address: a domain after "at"/"@" is left to
// the email recognizer.
import { fromChars, fromWords, type Recognizer } from './doc.js';
import { spokenDomainEnd, TLD } from './email.js';
import type { Detection } from '../types.js';

const WRITTEN = /(?<![\w@.-])(?:(?:https?:\/\/|www\.)[^\s<>"'()]+|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?:\/[^\s<>"'()]*)?)/gi;

export const urlRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  for (const m of doc.text.matchAll(WRITTEN)) {
    const text = m[0].replace(/[.,;:!?]+$/, '');
    const start = m.index!;
    if (doc.text[start + m[0].length] === '@') continue;
    const host = text.replace(/^https?:\/\//i, '').split('/')[0].toLowerCase();
    const tld = host.split('.').pop() ?? '';
    if (!/^https?:|^www\./i.test(text) && !TLD.has(tld)) continue;
    if (/^\d+(\.\d+)+$/.test(host)) continue; // a number or an IP address
    out.push(fromChars(doc, 'URL', start, start + text.length, 0.85, 'url'));
  }
  const w = doc.words.map((x) => x.norm);
  for (let i = 0; i < w.length; i++) {
    let j = i;
    // "h t t p s colon slash slash", "https colon slash slash"
    const scheme = w.slice(i, i + 5).join('');
    if (w[i] === 'http' || w[i] === 'https') j = i + 1;
    else if (scheme.startsWith('https')) j = i + 5;
    else if (scheme.startsWith('http')) j = i + 4;
    if (j > i) {
      if (w[j] !== 'colon') continue;
      j++;
      while (w[j] === 'slash' || w[j] === 'forward') j++;
    }
    // "www dot", "w w w dot", "double u double u double u dot"
    let www = 0;
    if (w[j] === 'www') www = 1;
    else if (w[j] === 'w' && w[j + 1] === 'w' && w[j + 2] === 'w') www = 3;
    const afterWww = www > 0 && w[j + www] === 'dot' ? j + www + 1 : j;
    if (j === i && afterWww === j && (w[i - 1] === 'at' || w[i - 1] === 'dot' || w[i - 1] === 'dash' || w[i - 1] === 'underscore')) continue;
    let end = spokenDomainEnd(w, afterWww, 12);
    if (end < 0) continue;
    if (w[end] === 'at' || w[end] === 'sign') continue;
    while (w[end] === 'slash' && /^[a-z0-9-]+$/.test(w[end + 1] ?? '')) end += 2;
    const sure = j > i || afterWww > j;
    out.push(fromWords(doc, 'URL', i, end, sure ? 0.85 : 0.7, 'url'));
    i = end - 1;
  }
  return out;
};
