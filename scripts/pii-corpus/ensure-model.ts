// The install's step for the tagger model (src/redact/tagger/model.json, generated, not in git): trains it
// (train.ts) when it is missing or was built from other inputs than these (the hash it records), else says it is up
// to date in a fraction of a second. Run by `./run build` (so by `./run start`, `./run test` and `.ci/run`), by
// `npm run build`, and in the before tree eval/pii-turns.ts copies from git.
//
//   node --import tsx scripts/pii-corpus/ensure-model.ts       (npm run tagger:ensure)
import { inputsHash, modelInputsHash, MODEL_PATH } from './inputs.js';

const want = inputsHash();
const have = modelInputsHash();
if (have === want) {
  console.error(`tagger model up to date (${MODEL_PATH})`);
} else {
  console.error(
    `training the PII tagger's model (${have ? 'built from older inputs' : 'not built yet'}): about a minute on one core, once; writes ${MODEL_PATH}`,
  );
  // Loaded only now: the training code pulls in the corpus generator and the detector's word lists (seconds).
  const { buildModel } = await import('./train.js');
  buildModel();
}
