// Trains the sequence tagger on the generated corpus's train split (written and ASR form of every utterance) and
// writes src/redact/tagger/model.json with the hash of its inputs. Deterministic: same inputs, same bytes.
//
// The model is generated, not in git: the install builds it when it is missing or older than its inputs
// (scripts/pii-corpus/ensure-model.ts, from ./run build and npm run build).
//
//   npm run tagger:train            (about a minute on one core: always trains)
//   npm run tagger:train -- --check (exit 1 when the model is absent or older than its inputs)
//   npm run tagger:ensure           (trains only when the model is absent or older than its inputs)
import fs from 'node:fs';
import { docFromText, docFromWords, type Doc } from '../../src/redact/recognizers/doc.js';
import { featuresAt, wordViews } from '../../src/redact/tagger/features.js';
import { MODEL_FILE, type TaggerModel } from '../../src/redact/tagger/model.js';
import { Perceptron } from '../../src/redact/tagger/perceptron.js';
import { caseless, TAG_PARTS, TAGS } from '../../src/redact/tagger/tagger.js';
import { generate, type GoldSpan } from './generate.js';
import { inputsHash, modelInputsHash } from './inputs.js';
import { rng, shuffle } from './random.js';

export const EPOCHS = 8;
/** Averaged weights under this (thousandths) are dropped: the model stays small, accuracy does not move. */
export const MIN_WEIGHT = 20;
/**
 * Feature dropout in training: each context feature is left out with this probability, and the identity of a word
 * inside a gold span (its lower-case form) more often, so that the model learns from shape, word lists and many
 * cues rather than from the template frames and the training names themselves.
 */
export const DROP_CONTEXT = 0.2;
export const DROP_IDENTITY = 0.5;
const IDENTITY = /^(w=|w-1w=|ww\+1=|t1w=|p3=)/;

/** Gold BIO tag index per word: a word is in a span when its core overlaps it. */
export function goldTags(doc: Doc, gold: readonly GoldSpan[]): number[] {
  const tags = new Array<number>(doc.words.length).fill(0);
  for (const g of gold) {
    const index = (TAGS as string[]).indexOf(`B-${g.kind}`);
    if (index < 0) continue;
    let first = true;
    doc.words.forEach((w, i) => {
      if (w.end > w.start && w.start < g.end && g.start < w.end) {
        tags[i] = first ? index : index + 1;
        first = false;
      }
    });
  }
  return tags;
}

export interface Sequence {
  doc: Doc;
  tags: number[];
}

/** How often a word must be said outside every span, and never inside a name or an address, to be ordinary. */
export const ORDINARY_MIN = 3;

/** The training split's ordinary words (TaggerModel.ordinary), sorted. */
export function ordinaryWords(sequences: readonly Sequence[]): string[] {
  const outside = new Map<string, number>();
  const inside = new Set<string>();
  const named = new Set(['Person', 'Address'].flatMap((k) => [TAGS.indexOf(`B-${k}`), TAGS.indexOf(`I-${k}`)]));
  for (const { doc, tags } of sequences) {
    doc.words.forEach((w, i) => {
      if (!/^\p{L}+$/u.test(w.norm)) return;
      if (tags[i] === 0) outside.set(w.norm, (outside.get(w.norm) ?? 0) + 1);
      else if (named.has(tags[i])) inside.add(w.norm);
    });
  }
  return [...outside].filter(([w, n]) => n >= ORDINARY_MIN && !inside.has(w)).map(([w]) => w).sort();
}

export function trainingSequences(): Sequence[] {
  const out: Sequence[] = [];
  for (const u of generate('train')) {
    const w = docFromText(u.written.text);
    out.push({ doc: w, tags: goldTags(w, u.written.gold) });
    const a = docFromWords(u.asr.words);
    out.push({ doc: a, tags: goldTags(a, u.asr.gold) });
  }
  return out;
}

export function train(sequences: Sequence[], epochs = EPOCHS): TaggerModel {
  const p = new Perceptron(TAGS);
  const r = rng(42);
  const order = sequences.map((_, i) => i);
  const prepared = sequences.map((s) => ({ views: wordViews(s.doc, caseless(s.doc)), tags: s.tags }));
  for (let e = 0; e < epochs; e++) {
    shuffle(r, order);
    let wrong = 0;
    let total = 0;
    for (const k of order) {
      const { views, tags } = prepared[k];
      const guessed: number[] = [];
      for (let i = 0; i < views.length; i++) {
        const all = featuresAt(views, i, TAG_PARTS[guessed[i - 1] ?? 0], TAG_PARTS[guessed[i - 2] ?? 0]);
        const f = all.filter((x) => x === 'b' || r() >= (tags[i] !== 0 && IDENTITY.test(x) ? DROP_IDENTITY : DROP_CONTEXT));
        const guess = p.best(f).tag;
        p.update(f, tags[i], guess);
        guessed.push(guess);
        if (guess !== tags[i]) wrong++;
        total++;
      }
    }
    console.error(`epoch ${e + 1}: ${wrong} of ${total} words wrong`);
  }
  p.average();
  const model = p.toModel(MIN_WEIGHT);
  return { ...model, inputsHash: inputsHash(), trained: { epochs, sentences: sequences.length, features: Object.keys(model.weights).length }, ordinary: ordinaryWords(sequences) };
}

/** Trains on the corpus and writes MODEL_FILE (one feature per line). */
export function buildModel(): void {
  const t0 = Date.now();
  const model = train(trainingSequences());
  // One feature per line: diffs of two models stay readable. inputsHash first: inputs.ts's modelInputsHash reads it
  // from the head of the file.
  const lines = Object.entries(model.weights).map(([f, w]) => `${JSON.stringify(f)}:${JSON.stringify(w)}`);
  const text = `{"inputsHash":${JSON.stringify(model.inputsHash)},"trained":${JSON.stringify(model.trained)},"tags":${JSON.stringify(model.tags)},"ordinary":${JSON.stringify(model.ordinary)},"weights":{\n${lines.join(',\n')}\n}}\n`;
  // Written whole then renamed: a run cut short leaves no half model for a later check to read.
  fs.writeFileSync(`${MODEL_FILE}.tmp`, text);
  fs.renameSync(`${MODEL_FILE}.tmp`, MODEL_FILE);
  console.log(`wrote ${MODEL_FILE}: ${model.trained.features} features, ${(text.length / 1e6).toFixed(2)} MB, ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

function main(): void {
  if (process.argv.includes('--check')) {
    const hash = inputsHash();
    const current = modelInputsHash();
    if (current !== hash) {
      console.error(`tagger model is ${current ? 'stale' : 'absent'} (model ${current ?? 'absent'}, inputs ${hash}): run npm run tagger:train`);
      process.exit(1);
    }
    console.log('tagger model up to date');
    return;
  }
  buildModel();
}

if (process.argv[1]?.endsWith('train.ts')) main();
