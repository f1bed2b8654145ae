// The hand-written turns of eval/handwritten-calls.txt as utterances: a set written apart from the corpus
// generator and never tuned on, which says how detection does on phrasing the generator does not make.
import fs from 'node:fs';
import path from 'node:path';
import type { GoldSpan, Utterance } from '../scripts/pii-corpus/generate.js';
import { ENTITY_KINDS, type EntityKind } from '../src/redact/entityKinds.js';

const FILE = path.join(import.meta.dirname, 'handwritten-calls.txt');
const SPAN = /\{\{([A-Za-z]+)\|([^}]*)\}\}/g;

/** A marked-up line as its text and gold spans ({{Kind|text}} → text, span over it). */
export function parseMarked(line: string): { text: string; gold: GoldSpan[] } {
  let text = '';
  const gold: GoldSpan[] = [];
  let last = 0;
  for (const m of line.matchAll(SPAN)) {
    const kind = m[1] as EntityKind;
    if (!ENTITY_KINDS.includes(kind)) throw new Error(`unknown kind ${m[1]} in ${JSON.stringify(line)}`);
    text += line.slice(last, m.index);
    gold.push({ kind, start: text.length, end: text.length + m[2].length });
    text += m[2];
    last = m.index! + m[0].length;
  }
  return { text: text + line.slice(last), gold };
}

/** How a file of w:/a: pairs is checked: what the ASR form may hold, and whether both forms mark the same kinds. */
export interface PairRules {
  /** Matches a character the ASR form may not hold. */
  notAsr: RegExp;
  /** Both forms mark their spans with the same kinds, in the same order (else only as many spans). */
  sameKinds: boolean;
}

/**
 * A file of marked-up pairs as utterances: a "w: " line (the written form) and an "a: " line (the ASR form), one
 * pair per utterance; blank lines and # comments skipped. The one parser of eval/handwritten-calls.txt and the
 * hand-written turns (eval/handwritten-turns.ts).
 */
export function loadPairs(file: string, rules: PairRules): Utterance[] {
  const lines = fs.readFileSync(file, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const out: Utterance[] = [];
  for (let i = 0; i < lines.length; i += 2) {
    const [w, a] = [lines[i], lines[i + 1]];
    if (!w?.startsWith('w: ') || !a?.startsWith('a: ')) throw new Error(`expected a w:/a: pair at ${JSON.stringify(w)}`);
    const written = parseMarked(w.slice(3));
    const spoken = parseMarked(a.slice(3));
    if (rules.notAsr.test(spoken.text)) throw new Error(`the ASR form must be lower-case words: ${JSON.stringify(a)}`);
    if (written.gold.length !== spoken.gold.length || (rules.sameKinds && written.gold.some((g, k) => g.kind !== spoken.gold[k].kind))) {
      throw new Error(`the forms mark different spans: ${JSON.stringify(w)}`);
    }
    out.push({
      split: 'test',
      family: written.gold.length > 0 ? 'handwritten' : 'no-pii',
      written,
      asr: { words: spoken.text.split(' ').filter(Boolean), gold: spoken.gold },
    });
  }
  return out;
}

/** The calls' turns: an ASR form of ASCII lower-case words (no capital, digit or punctuation but the apostrophe). */
export function loadHandwritten(file = FILE): Utterance[] {
  return loadPairs(file, { notAsr: /[^a-z' ]/, sameKinds: false });
}
