// Phone numbers: written formats ((555) 123-4567, +1-944-435-4352x04732, 986.291.2294, 027 896 92 86) and digit
// runs: 10 digits (11 starting with 1) anywhere, 7-15 digits after a phone cue.
import { fromChars, fromWords, wordsOverlapping, type Recognizer } from './doc.js';
import { cuesBefore, digitRuns } from './digitRuns.js';
import type { Detection } from '../types.js';

const WRITTEN = /(?<![\w.+-])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,4}\)[\s.-]?)?\d{2,4}(?:[\s.-]\d{2,4}){1,4}(?:\s?(?:x|ext\.?)\s?\d{1,6})?(?![\w-]|\.\d)/gi;

export const phoneRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  for (const m of doc.text.matchAll(WRITTEN)) {
    const s = m[0];
    const digits = s.replace(/(?:x|ext\.?)\s?\d+$/i, '').replace(/\D/g, '');
    if (digits.length < 7 || digits.length > 15) continue;
    if (/^\d{4}-\d{2}-\d{2}/.test(s) || /^\d{1,3}(\.\d{1,3}){3}$/.test(s)) continue;
    const seps = (s.match(/[\s.-]/g) ?? []).length + (s.includes('(') ? 1 : 0);
    if (seps < 1) continue;
    let c = 0.6;
    if (/^\(?\d{3}\)?[\s.-]?\d{3}[.-]\d{4}$/.test(s) || /^\+|\(|x|ext/i.test(s)) c = 0.85;
    else if (seps >= 3) c = 0.7;
    const start = m.index!;
    const at = wordsOverlapping(doc, start, start + s.length);
    if (at && cuesBefore(doc, at.wordStart).has('phone')) c += 0.1;
    out.push(fromChars(doc, 'PhoneNumber', start, start + s.length, c, 'phone'));
  }
  const runs = digitRuns(doc);
  const runAt = new Map(runs.map((r) => [r.wordStart, r]));
  for (const run of runs) {
    const n = run.digits.length;
    const cue = run.cues.has('phone');
    const ext = /^(x|ext|extension)$/.test(doc.words[run.wordEnd]?.norm ?? '') ? runAt.get(run.wordEnd + 1) : undefined;
    if (ext && n >= 7 && n <= 15) {
      out.push(fromWords(doc, 'PhoneNumber', run.wordStart, ext.wordEnd, 0.9, 'phone'));
    } else if (n === 10 || (n === 11 && run.digits[0] === '1')) {
      out.push(fromWords(doc, 'PhoneNumber', run.wordStart, run.wordEnd, cue ? 0.9 : 0.7, 'phone'));
    } else if (cue && n >= 7 && n <= 15) {
      out.push(fromWords(doc, 'PhoneNumber', run.wordStart, run.wordEnd, 0.8, 'phone'));
    }
  }
  return out;
};
