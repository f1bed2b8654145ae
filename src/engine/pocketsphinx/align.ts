// Word times for text that came without them (Whisper and other models that give no token times): the bundled
// acoustic model decodes the same audio with a grammar that accepts exactly that word sequence, and the times
// of its words are the alignment. A number written in digits enters the grammar as the ways it may be said
// (spokenNumbers.ts), and takes the span of the form that was. Other words the pronunciation dictionary lacks
// (unusual names) cannot be in the grammar: they take the time between their aligned neighbours, widened to
// the neighbours themselves when that gap is too short to hold them — wide rather than missing, since audio redaction
// depends on these spans. When the grammar finds no path at all, words are spread over the stretch by length
// and reported as such.
//
// Synchronous and CPU-bound, like decoder.ts: runs on a pool worker.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Word } from '../../transcript/types.js';
import { decodePcm, type PocketSphinxModel } from './decoder.js';
import { spokenForms } from './spokenNumbers.js';

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

/** Whether a word can be a JSGF token as it is (sphinxbase keeps quotes in the word, so none are used). */
function jsgfSafe(word: string): boolean {
  return /^[^\s;=|*+<>()[\]{}/"#!]+$/.test(word);
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
  // Each word is in the grammar as itself, as the ways a number may be said, or not at all (unknown).
  const items = words.map((w): string[][] | undefined => {
    if (dict.has(w) && jsgfSafe(w)) return [[w]];
    const forms = spokenForms(w)?.filter((f) => f.every((x) => dict.has(x)));
    return forms && forms.length > 0 ? forms : undefined;
  });
  const known = items.map((i) => i !== undefined);
  if (!known.some(Boolean)) return { words: spread(words, 0, duration), aligned: 0, spread: true };

  const rule = items
    .filter((i): i is string[][] => i !== undefined)
    .map((forms) => (forms.length === 1 ? forms[0].join(' ') : `( ${forms.map((f) => f.join(' ')).join(' | ')} )`))
    .join(' ');
  const grammar = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-align-')), 'align.gram');
  let timed: Word[];
  try {
    fs.writeFileSync(grammar, `#JSGF V1.0;\ngrammar align;\npublic <utterance> = ${rule};\n`);
    timed = decodePcm({ ...model, jsgf: grammar }, pcm).words;
  } finally {
    fs.rmSync(path.dirname(grammar), { recursive: true, force: true });
  }

  // Walk the decoded words back onto the input words: a number takes the span of the form that was said.
  const out: Word[] = new Array(words.length);
  let k = 0;
  let matched = true;
  words.forEach((word, i) => {
    const forms = items[i];
    if (!forms || !matched) return;
    const form = forms.find((f) => f.every((x, n) => timed[k + n]?.word === x));
    if (!form) {
      matched = false;
      return;
    }
    const first = timed[k];
    const last = timed[k + form.length - 1];
    out[i] = { word, start: first.start, end: last.end, confidence: round3(form.reduce((s, _, n) => s + timed[k + n].confidence, 0) / form.length) };
    k += form.length;
  });
  if (!matched || k !== timed.length) return { words: spread(words, 0, duration), aligned: 0, spread: true };

  // Place each run of unknown words between its aligned neighbours.
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
  return { words: out, aligned: known.filter(Boolean).length, spread: false };
}
