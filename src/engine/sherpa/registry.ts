// The models operators add for the sherpa-onnx engine: one folder per model under the models directory,
// `<dir>/<language>/<name>/`, holding the model's files (copied in) or, for a model registered where it lies,
// only the manifest `scrubline-model.json` pointing at it. The manifest records where the model came from and
// the last load check (probe.ts); the folder is inspected again whenever the models are listed, so a file
// deleted behind the service's back shows up as "not installed" with the reason, not as a crash.
import fs from 'node:fs';
import path from 'node:path';
import { inspectModelFolder, ModelFolderError, type SherpaModelSpec } from './modelFolder.js';
import type { ProbeResult } from './probe.js';

export const MANIFEST = 'scrubline-model.json';

export interface ModelManifest {
  name: string;
  /** Where the model files are (this folder when copied in). */
  path: string;
  /** How it got here: `scrubline models add` or `pull`. */
  source: { kind: 'added' | 'pulled'; from: string; sha256?: string; verified?: boolean };
  addedAt: string;
  description?: string;
  probe?: ProbeResult;
}

export interface AddedModel {
  name: string;
  language: string;
  manifest: ModelManifest;
  /** The folder holding the manifest. */
  dir: string;
  /** The files, when the folder inspects well (the model is usable only without a `reason`). */
  spec?: SherpaModelSpec;
  /** Why the model cannot be used (folder no longer valid, load check failed). */
  reason?: string;
}

/**
 * Where added models live: $SCRUBLINE_MODELS_DIR/onnx when that is set (one folder for every model), else
 * models/ in the data directory ($SCRUBLINE_DATA_DIR, default ./data).
 */
export function addedModelsDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SCRUBLINE_MODELS_DIR) return path.resolve(env.SCRUBLINE_MODELS_DIR, 'onnx');
  return path.resolve(env.SCRUBLINE_DATA_DIR || 'data', 'models');
}

export class ModelNameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelNameError';
  }
}

/** `language:name`, both parts plain (they become folder names). */
export function parseModelName(name: string): { language: string; model: string } {
  const match = /^([a-z]{2,3}(?:-[a-z0-9]{2,8})*):([a-z0-9][a-z0-9._-]{0,63})$/i.exec(name);
  if (!match) throw new ModelNameError(`"${name}" is not a model name: use language:name, e.g. en-us:whisper-small`);
  return { language: match[1].toLowerCase(), model: match[2] };
}

/** A default name for a folder: en-us:<folder name without the sherpa-onnx- prefix>. */
export function defaultModelName(dir: string): string {
  const base = path.basename(path.resolve(dir)).toLowerCase().replace(/^sherpa-onnx-/, '').replace(/[^a-z0-9._-]+/g, '-').replace(/^[^a-z0-9]+/, '').slice(0, 64);
  return `en-us:${base || 'model'}`;
}

export function folderOf(name: string, root = addedModelsDir()): string {
  const { language, model } = parseModelName(name);
  return path.join(root, language, model);
}

const specCache = new Map<string, { signature: string; spec?: SherpaModelSpec; reason?: string }>();

/** Sizes and times of the folder's files: inspection is redone only when they change. */
function signatureOf(dir: string): string {
  try {
    return fs
      .readdirSync(dir)
      .sort()
      .map((n) => {
        const st = fs.statSync(path.join(dir, n));
        return `${n}:${st.size}:${st.mtimeMs}`;
      })
      .join('|');
  } catch (error) {
    return `error:${(error as NodeJS.ErrnoException).code}`;
  }
}

function inspectCached(dir: string): { spec?: SherpaModelSpec; reason?: string } {
  const signature = signatureOf(dir);
  const hit = specCache.get(dir);
  if (hit && hit.signature === signature) return hit;
  let entry: { signature: string; spec?: SherpaModelSpec; reason?: string };
  try {
    entry = { signature, spec: inspectModelFolder(dir) };
  } catch (error) {
    entry = { signature, reason: error instanceof ModelFolderError ? error.problems.join('; ') : (error as Error).message };
  }
  specCache.set(dir, entry);
  return entry;
}

export function readManifest(folder: string): ModelManifest | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(folder, MANIFEST), 'utf8')) as ModelManifest;
  } catch {
    return undefined;
  }
}

export function writeManifest(folder: string, manifest: ModelManifest): void {
  const file = path.join(folder, MANIFEST);
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(manifest, null, 2)}\n`);
  fs.renameSync(`${file}.tmp`, file);
}

/** Every added model, each inspected (cheap when unchanged). */
export function listAddedModels(root = addedModelsDir()): AddedModel[] {
  const out: AddedModel[] = [];
  let languages: string[];
  try {
    languages = fs.readdirSync(root);
  } catch {
    return out;
  }
  for (const language of languages.sort()) {
    let names: string[];
    try {
      names = fs.readdirSync(path.join(root, language));
    } catch {
      continue;
    }
    for (const model of names.sort()) {
      const dir = path.join(root, language, model);
      const manifest = readManifest(dir);
      if (!manifest) continue;
      const { spec, reason } = inspectCached(manifest.path);
      const probeFailed = manifest.probe && !manifest.probe.ok ? manifest.probe.reason : undefined;
      out.push({
        name: `${language}:${model}`,
        language,
        manifest,
        dir,
        // The inspected files even when the last load check failed: a start-up check tries them again once they change.
        ...(spec && { spec }),
        ...((reason || probeFailed) && { reason: reason ? `model folder ${manifest.path}: ${reason}` : probeFailed }),
      });
    }
  }
  return out;
}
