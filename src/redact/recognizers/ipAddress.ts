// IP addresses: written IPv4/IPv6, and spoken IPv4 ("one nine two dot one six eight dot one dot one").
import { fromChars, fromWords, type Recognizer } from './doc.js';
import type { Detection } from '../types.js';
import { digitsOf } from './digitRuns.js';

const V4 = /(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?![\d.]*\d)/g;
const V6 = /(?<![\w:])(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4}(?![\w:])/gi;

export const ipAddressRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  for (const m of doc.text.matchAll(V4)) out.push(fromChars(doc, 'IPAddress', m.index!, m.index! + m[0].length, 0.9, 'ip-address'));
  for (const m of doc.text.matchAll(V6)) {
    if (((m[0].match(/:/g) ?? []).length >= 3 || m[0].includes('::')) && /[0-9a-f]{2}/i.test(m[0]) && !/^\d{1,2}(:\d{2}){1,2}$/.test(m[0])) out.push(fromChars(doc, 'IPAddress', m.index!, m.index! + m[0].length, 0.8, 'ip-address'));
  }
  // spoken: N dot N dot N dot N over numtrans tokens
  const t = doc.tokens;
  const octet = (i: number) => {
    const d = digitsOf(t[i], false);
    return d !== undefined && d.length <= 3 && Number(d) <= 255;
  };
  for (let i = 0; i + 6 < t.length; i++) {
    if (octet(i) && t[i + 1].text === 'dot' && octet(i + 2) && t[i + 3].text === 'dot' && octet(i + 4) && t[i + 5].text === 'dot' && octet(i + 6)) {
      out.push(fromWords(doc, 'IPAddress', t[i].wordStart, t[i + 6].wordEnd, 0.9, 'ip-address'));
      i += 6;
    }
  }
  return out;
};
