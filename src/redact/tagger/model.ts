// The trained tagger model (model.json, built by `npm run tagger:train`, scripts/pii-corpus/train.ts), read once
// per thread on first use. The file sits beside this source; compiled code (dist/) reads the same file from src/.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PerceptronModel } from './perceptron.js';

export interface TaggerModel extends PerceptronModel {
  /** sha256 of everything the model was built from (scripts/pii-corpus/inputs.ts). */
  inputsHash: string;
  /** What training measured, for the record (dev split, token accuracy). */
  trained: { epochs: number; sentences: number; features: number };
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const MODEL_FILE = path.join(ROOT, 'src', 'redact', 'tagger', 'model.json');

let loaded: TaggerModel | undefined;

export function taggerModel(): TaggerModel {
  if (!loaded) loaded = JSON.parse(fs.readFileSync(MODEL_FILE, 'utf8')) as TaggerModel;
  return loaded;
}
