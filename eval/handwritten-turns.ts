// The hand-written customer-service turns of issue #32 (eval/handwritten-turns-dev.txt, -heldout.txt) as
// utterances: requests, complaints, bookings, small talk, numbers that are not personal data, and the shapes that
// leaked, written by hand in registers the corpus templates never use. Two halves: dev (read while tuning) and
// held-out (run once, reported apart).
import fs from 'node:fs';
import path from 'node:path';
import type { Utterance } from '../scripts/pii-corpus/generate.js';
import { parseMarked } from './handwritten.js';

/**
 * dev and heldout: written with the tagger work; dev2 and heldout2: written blind to the detector by another
 * engineer (dev2 read while tuning; heldout2 run once, then read while tuning from the next round on); heldout3:
 * written blind by a third author, run once.
 */
export type TurnsHalf = 'dev' | 'dev2' | 'heldout' | 'heldout2' | 'heldout3';

export const turnsFile = (half: TurnsHalf) => path.join(import.meta.dirname, `handwritten-turns-${half}.txt`);

/**
 * One half as utterances. The ASR form may hold non-ASCII lower-case letters (a recognizer's vocabulary can), but
 * no capital, digit or punctuation but the apostrophe.
 */
export function loadTurns(half: TurnsHalf, file = turnsFile(half)): Utterance[] {
  const lines = fs.readFileSync(file, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const out: Utterance[] = [];
  for (let i = 0; i < lines.length; i += 2) {
    const [w, a] = [lines[i], lines[i + 1]];
    if (!w?.startsWith('w: ') || !a?.startsWith('a: ')) throw new Error(`expected a w:/a: pair at ${JSON.stringify(w)}`);
    const written = parseMarked(w.slice(3));
    const spoken = parseMarked(a.slice(3));
    if (/[^\p{Ll}' ]/u.test(spoken.text)) throw new Error(`the ASR form must be lower-case words: ${JSON.stringify(a)}`);
    if (written.gold.length !== spoken.gold.length || written.gold.some((g, k) => g.kind !== spoken.gold[k].kind)) throw new Error(`the forms mark different spans: ${JSON.stringify(w)}`);
    out.push({
      split: 'test',
      family: written.gold.length > 0 ? 'handwritten' : 'no-pii',
      written,
      asr: { words: spoken.text.split(' ').filter(Boolean), gold: spoken.gold },
    });
  }
  return out;
}
