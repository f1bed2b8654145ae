// Adding and removing models (the `scrubline models` commands): a folder is inspected (modelFolder.ts), loaded
// once in a child process (probe.ts) and only then registered — copied into the models directory, or
// registered where it lies with `inPlace`. A folder that fails either check is refused with its reasons and
// nothing is written.
import fs from 'node:fs';
import path from 'node:path';
import { inspectModelFolder, type SherpaModelSpec } from './modelFolder.js';
import { filesSignature } from './checkAtStart.js';
import { probeModel, type ProbeResult } from './probe.js';
import { addedModelsDir, defaultModelName, folderOf, listAddedModels, parseModelName, writeManifest, type AddedModel, type ModelManifest } from './registry.js';

export class ModelAdminError extends Error {
  constructor(
    message: string,
    readonly code: 'exists' | 'not_found' | 'load_failed',
  ) {
    super(message);
    this.name = 'ModelAdminError';
  }
}

export interface AddModelOptions {
  /** `language:name` (default: en-us:<folder name>). */
  name?: string;
  /** Register the folder where it is instead of copying it in. */
  inPlace?: boolean;
  /** Move the folder in instead of copying it (a pulled download, on the same disk). */
  move?: boolean;
  /** Models directory (default addedModelsDir()). */
  root?: string;
  source?: ModelManifest['source'];
  description?: string;
  /** The load check (default: probeModel in a child process). */
  probe?: (spec: SherpaModelSpec) => Promise<ProbeResult>;
}

export async function addModel(src: string, options: AddModelOptions = {}): Promise<AddedModel> {
  const from = path.resolve(src);
  const name = options.name ?? defaultModelName(from);
  parseModelName(name);
  const root = options.root ?? addedModelsDir();
  const folder = folderOf(name, root);
  if (fs.existsSync(folder)) throw new ModelAdminError(`a model named ${name} is already registered (${folder}); remove it first`, 'exists');
  const spec = inspectModelFolder(from);
  const probe = { ...(await (options.probe ?? probeModel)(spec)), signature: filesSignature(spec) };
  if (!probe.ok) throw new ModelAdminError(`${from}: ${probe.reason}`, 'load_failed');
  const staging = `${folder}.adding-${process.pid}`;
  fs.mkdirSync(path.dirname(folder), { recursive: true });
  try {
    if (options.move) fs.renameSync(from, staging);
    else fs.mkdirSync(staging);
    if (!options.inPlace && !options.move) {
      for (const file of fs.readdirSync(from)) {
        if (fs.statSync(path.join(from, file)).isFile()) fs.copyFileSync(path.join(from, file), path.join(staging, file));
      }
    }
    writeManifest(staging, {
      name,
      path: options.inPlace && !options.move ? from : folder,
      source: options.source ?? { kind: 'added', from },
      addedAt: new Date().toISOString(),
      ...(options.description && { description: options.description }),
      probe,
    });
    // Appears whole or not at all: a listing never sees a half-copied model.
    fs.renameSync(staging, folder);
  } catch (error) {
    if (options.move && fs.existsSync(staging) && !fs.existsSync(from)) fs.renameSync(staging, from);
    else fs.rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  return listAddedModels(root).find((m) => m.name === name)!;
}

/** Unregisters a model; copied files are deleted, a folder registered in place is left where it is. */
export function removeModel(name: string, root = addedModelsDir()): AddedModel {
  const model = listAddedModels(root).find((m) => m.name === name);
  if (!model) throw new ModelAdminError(`no added model is named ${name}`, 'not_found');
  fs.rmSync(model.dir, { recursive: true, force: true });
  return model;
}
