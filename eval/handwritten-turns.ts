// The hand-written customer-service turns of issue #32 (eval/handwritten-turns-dev.txt, -heldout.txt) as
// utterances: requests, complaints, bookings, small talk, numbers that are not personal data, and the shapes that
// leaked, written by hand in registers the corpus templates never use. Two halves: dev (read while tuning) and
// held-out (run once, reported apart).
import path from 'node:path';
import type { Utterance } from '../scripts/pii-corpus/generate.js';
import { loadPairs } from './handwritten.js';

/**
 * dev and heldout: written with the tagger work; dev2 and heldout2: written blind to the detector by another
 * engineer (dev2 read while tuning; heldout2 run once, then read while tuning from the next round on); heldout3:
 * written blind by a third author, run once, then read while tuning; heldout4: a fourth blind author's, run once
 * (the ninth session), read while tuning since; heldout5: a fifth blind author's, run once (the tenth session),
 * read while tuning since; heldout6: a sixth blind author's, run once.
 */
export type TurnsHalf = 'dev' | 'dev2' | 'heldout' | 'heldout2' | 'heldout3' | 'heldout4' | 'heldout5' | 'heldout6';

export const turnsFile = (half: TurnsHalf) => path.join(import.meta.dirname, `handwritten-turns-${half}.txt`);

/**
 * One half as utterances (eval/handwritten.ts's parser). The ASR form may hold non-ASCII lower-case letters (a
 * recognizer's vocabulary can), but no capital, digit or punctuation but the apostrophe; both forms mark the same
 * kinds in the same order.
 */
export function loadTurns(half: TurnsHalf, file = turnsFile(half)): Utterance[] {
  return loadPairs(file, { notAsr: /[^\p{Ll}' ]/u, sameKinds: true });
}
