// The trained tagger model (model.json, built by `npm run tagger:train`, scripts/pii-corpus/train.ts), read once
// per thread on first use. Generated, not in git: the install builds it (`./run build`, which `./run start` and
// `./run test` run, or `npm run build`: scripts/pii-corpus/ensure-model.ts) when missing or older than its inputs.
// The file sits beside this source; compiled code (dist/redact/tagger/model.js, as deep under the root as
// src/redact/tagger/model.ts) reads the same file from src/: dist/ holds no copy to go stale.
// Without it the service does not start (services.ts: requireTaggerModel), naming the command; a detection that
// reaches it anyway (every one reads the model's ordinary words, the tagger on or off) throws the same error and
// its recognizer fails closed (detect.ts masks the whole text): never a service that silently redacts less.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMON_WORDS } from '../recognizers/nameData.js';
import { STOP } from '../recognizers/stopwords.js';
import type { PerceptronModel } from './perceptron.js';

export interface TaggerModel extends PerceptronModel {
  /** sha256 of everything the model was built from (scripts/pii-corpus/inputs.ts). */
  inputsHash: string;
  /** What training measured, for the record (dev split, token accuracy). */
  trained: { epochs: number; sentences: number; features: number };
  /**
   * Ordinary words of the training corpus: said at least ORDINARY_MIN times outside every span and never inside a
   * name or an address ("payment", "ticket", "period"). A filter, not a feature: a Person run made only of such
   * words is not a name (recognizers/tagger.ts, person.ts).
   */
  ordinary: string[];
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const MODEL_FILE = path.join(ROOT, 'src', 'redact', 'tagger', 'model.json');

/** The command that builds the model, for messages. */
export const BUILD_MODEL_COMMAND = '`./run build` (or `npm run tagger:train`)';

export class TaggerModelMissingError extends Error {
  constructor(file = MODEL_FILE) {
    super(`the PII tagger's model ${file} is missing: it is generated at install, not kept in git; build it with ${BUILD_MODEL_COMMAND} in ${ROOT}`);
    this.name = 'TaggerModelMissingError';
  }
}

/** Throws TaggerModelMissingError when the model is not built: the service checks at start, before taking work. */
export function requireTaggerModel(file = MODEL_FILE): void {
  if (!fs.existsSync(file)) throw new TaggerModelMissingError(file);
}

let loaded: TaggerModel | undefined;

export function taggerModel(): TaggerModel {
  if (!loaded) {
    requireTaggerModel();
    loaded = JSON.parse(fs.readFileSync(MODEL_FILE, 'utf8')) as TaggerModel;
  }
  return loaded;
}

let ordinary: Set<string> | undefined;
/** The model's ordinary words (empty before a model has them). */
export function trainedOrdinary(): Set<string> {
  return (ordinary ??= new Set(taggerModel().ordinary ?? []));
}

/**
 * Languages (compromise's lexicon knows "French" but not "English" or "Spanish"): said on calls and written in
 * campaign descriptions ("Inbound disputes, English"), never a name alone ("English" is a surname: after a title
 * or a name cue the person rules still take it).
 */
const LANGUAGES = new Set(`language languages bilingual english spanish portuguese mandarin cantonese chinese arabic
hindi urdu bengali punjabi tagalog filipino vietnamese korean japanese russian ukrainian haitian creole farsi
persian swahili somali amharic tigrinya hmong khmer lao thai burmese nepali tamil telugu gujarati marathi malayalam
kannada pashto dari kurdish turkish hebrew yiddish greek albanian romanian hungarian czech slovak serbian croatian
bosnian bulgarian macedonian slovenian latvian lithuanian estonian finnish icelandic`.split(/\s+/));

/**
 * Backchannels and fillers, written as transcribers write them ("Mm-hmm.", "Uh-huh", "mhm"): a turn of its own on
 * every call and never a name (the tagger, trained on names after "um," and "uh yeah", took "Mm-hmm" for one).
 */
const FILLERS = new Set(`mm-hmm mm-hm mmhmm mhm mhmm mm hmm hm uh-huh uhhuh uh-uh uh-oh huh um umm uh uhh er erm ah ahh oh ooh
eh yep yup nope nah okey-dokey`.split(/\s+/));

/** Contractions as ASR writes them, without the apostrophe ("im calling from the hospital"): never a name alone. */
const CONTRACTIONS = new Set(`im ive youre theyre hes shes thats theres whats lets dont cant wont didnt doesnt isnt wasnt
arent werent havent hasnt couldnt wouldnt shouldnt youve weve theyve youll theyll itll youd theyd`.split(/\s+/));

/**
 * An ordinary English word: compromise's lexicon, a function word, a filler, the ordinary talk of the tagger's training
 * corpus (words never inside a name or an address there), or an English derivational ending names do not have.
 */
const ordinaryMemo = new Map<string, boolean>();
const ORDINARY_MEMO_MAX = 50_000;
export const ordinaryWord = (w: string): boolean => {
  // remembered per word (bounded): asked many times a word by the rules and the tagger's filters
  let hit = ordinaryMemo.get(w);
  if (hit === undefined) {
    hit = COMMON_WORDS.has(w) || STOP.has(w) || LANGUAGES.has(w) || FILLERS.has(w) || CONTRACTIONS.has(w) || trainedOrdinary().has(w) || /..(ment|tion|sion|ness|ity|ical|able|ible|ance|ence|ship|ful|less|ous|ive|ize|ise|dom|hood)$/.test(w);
    if (ordinaryMemo.size < ORDINARY_MEMO_MAX) ordinaryMemo.set(w, hit);
  }
  return hit;
};
