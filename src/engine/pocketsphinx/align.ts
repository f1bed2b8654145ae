// Word times for text that came without them (Whisper and other models that give no token times): the bundled
// acoustic model decodes the same audio with a grammar that accepts exactly that word sequence, and the times
// of its words are the alignment. Words the pronunciation dictionary lacks (numbers written as digits, names)
// cannot be in the grammar: they take the time between their aligned neighbours, widened to the neighbours
// themselves when that gap is too short to hold them — wide rather than missing, since audio redaction
// depends on these spans. When the grammar finds no path at all, words are spread over the stretch by length
// and reported as such.
//
// Synchronous and CPU-bound, like decoder.ts: runs on a pool worker.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Word } from '../../transcript/types.js';
import { decodePcm, type PocketSphinxModel } from './decoder.js';

export interface AlignResult {
  words: Word[];
  /** Words timed by the grammar; the rest were placed between them or spread. */
  aligned: number;
  /** True when the grammar found no path and every time is spread by length. */
  spread: boolean;
}

const dictionaries = new Map<string, Set<string>>();

/** The words of a pronunciation dictionary (once per file per thread: cmudict is ~135k lines). */
function dictionaryWords(file: string): Set<string> {
  let words = dictionaries.get(file);
  if (!words) {
    words = new Set();
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      const space = line.indexOf(' ');
      if (space > 0) words.add(line.slice(0, space).replace(/\(\d+\)$/, ''));
    }
    dictionaries.set(file, words);
  }
  return words;
}

/** A grammar token: JSGF needs quotes around anything but plain letters and digits. */
function jsgfToken(word: string): string {
  return /^[a-z0-9]+$/.test(word) ? word : `"${word.replace(/"/g, '')}"`;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** Spreads `words` over [start, end] in proportion to their lengths. */
function spread(words: string[], start: number, end: number): Word[] {
  const total = words.reduce((s, w) => s + w.length + 1, 0);
  let t = start;
  return words.map((word) => {
    const d = ((end - start) * (word.length + 1)) / total;
    const w = { word, start: round3(t), end: round3(t + d), confidence: 0 };
    t += d;
    return w;
  });
}

/**
 * Times for `words` (normalized: lower case, no punctuation) spoken in `pcm` (one stretch at the model's rate);
 * times are seconds from the start of `pcm`.
 */
export function alignWords(model: PocketSphinxModel, pcm: Int16Array, words: string[]): AlignResult {
  const duration = pcm.length / model.sampleRate;
  if (words.length === 0) return { words: [], aligned: 0, spread: false };
  const dict = dictionaryWords(model.dict);
  const known = words.map((w) => dict.has(w));
  const inGrammar = words.filter((_, i) => known[i]);
  if (inGrammar.length === 0) return { words: spread(words, 0, duration), aligned: 0, spread: true };

  const grammar = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-align-')), 'align.gram');
  let timed: Word[];
  try {
    fs.writeFileSync(grammar, `#JSGF V1.0;\ngrammar align;\npublic <utterance> = ${inGrammar.map(jsgfToken).join(' ')};\n`);
    timed = decodePcm({ ...model, jsgf: grammar, mllr: model.mllr }, pcm).words;
  } finally {
    fs.rmSync(path.dirname(grammar), { recursive: true, force: true });
  }
  if (timed.length !== inGrammar.length || timed.some((w, i) => w.word !== inGrammar[i])) {
    return { words: spread(words, 0, duration), aligned: 0, spread: true };
  }

  // Place each run of unknown words between its aligned neighbours.
  const out: Word[] = new Array(words.length);
  let k = 0;
  words.forEach((word, i) => {
    if (known[i]) out[i] = { ...timed[k++], word };
  });
  for (let i = 0; i < words.length; ) {
    if (known[i]) {
      i++;
      continue;
    }
    let j = i;
    while (j < words.length && !known[j]) j++;
    const before = i > 0 ? out[i - 1] : undefined;
    const after = j < words.length ? out[j] : undefined;
    let from = before?.end ?? 0;
    let to = after?.start ?? duration;
    // Too short a gap to hold the run (~70 ms a character): take the neighbours' time as well.
    const needed = 0.07 * words.slice(i, j).reduce((s, w) => s + w.length, 0);
    if (to - from < needed) {
      from = Math.max(0, Math.min(from, before?.start ?? 0, to - needed));
      to = Math.min(duration, Math.max(to, after?.end ?? duration, from + needed));
    }
    spread(words.slice(i, j), from, to).forEach((w, n) => (out[i + n] = w));
    i = j;
  }
  return { words: out, aligned: inGrammar.length, spread: false };
}
