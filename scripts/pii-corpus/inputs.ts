// What the tagger model is built from, hashed: the corpus generator, the tagger's features and training code,
// the word lists its gazetteer reads, and the versions of the packages that supply names and places. The model
// records this hash: the install builds the model when it is missing or its hash is not this one
// (scripts/pii-corpus/ensure-model.ts), and test/redact/tagger.test.ts fails when the model is older than its inputs.
// Light on purpose (node's own modules only): the install's check reads this and the model's hash, nothing else.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const INPUT_FILES = [
  'scripts/pii-corpus/generate.ts',
  'scripts/pii-corpus/random.ts',
  'scripts/pii-corpus/sources.ts',
  'scripts/pii-corpus/spoken.ts',
  'scripts/pii-corpus/templates.ts',
  'scripts/pii-corpus/values.ts',
  'scripts/pii-corpus/train.ts',
  'src/redact/tagger/features.ts',
  'src/redact/tagger/gazetteer.ts',
  'src/redact/tagger/perceptron.ts',
  'src/redact/tagger/tagger.ts',
  'src/redact/recognizers/nameData.ts',
  'src/redact/recognizers/places.ts',
  'src/redact/recognizers/stopwords.ts',
  'src/redact/recognizers/doc.ts',
];
const PACKAGES = ['@faker-js/faker', 'humannames', 'compromise'];

/** The model: src/redact/tagger/model.ts's MODEL_FILE (the same path; a test holds them equal). Generated, not in git. */
export const MODEL_PATH = path.join(ROOT, 'src', 'redact', 'tagger', 'model.json');

/** The inputs hash the model at MODEL_PATH was built from; undefined when there is no model (or no readable one). */
export function modelInputsHash(file = MODEL_PATH): string | undefined {
  if (!fs.existsSync(file)) return undefined;
  // The model starts {"inputsHash":"<hex>",... (train.ts writes it so): read its head, not 2 MB of weights.
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(200);
    const n = fs.readSync(fd, head, 0, head.length, 0);
    return /^\{"inputsHash":"([0-9a-f]{64})"/.exec(head.subarray(0, n).toString('utf8'))?.[1];
  } finally {
    fs.closeSync(fd);
  }
}

export function inputsHash(): string {
  const h = createHash('sha256');
  for (const f of INPUT_FILES) h.update(`${f}\0`).update(fs.readFileSync(path.join(ROOT, f))).update('\0');
  for (const p of PACKAGES) {
    const manifest = path.join(ROOT, 'node_modules', p, 'package.json');
    h.update(`${p}@${(JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version}\0`);
  }
  return h.digest('hex');
}
