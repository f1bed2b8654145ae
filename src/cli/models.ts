// `scrubline models list | add | remove | pull`: the models folder from the command line. Output is for people
// by default and JSON with --json; failures print one clear line and set a non-zero exit code.
import path from 'node:path';
import cliProgress from 'cli-progress';
import { findCatalogueEntry, CATALOGUE } from '../engine/catalogue.js';
import { listModels, type ModelInfo } from '../engine/models.js';
import { displayUrl, pullArchive, PullError, resolvePullSource, UnknownModelError } from '../engine/pull.js';
import { addModel, ModelAdminError, removeModel } from '../engine/sherpa/manage.js';
import { ModelFolderError } from '../engine/sherpa/modelFolder.js';
import { addedModelsDir, defaultModelName, ModelNameError } from '../engine/sherpa/registry.js';

function mb(bytes: number | undefined): string {
  return bytes === undefined ? '' : `${(bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB`;
}

/** Errors a user can act on: one line, exit code 1. Anything else is a bug and keeps its stack. */
function fail(error: unknown): number {
  if (error instanceof ModelFolderError || error instanceof ModelAdminError || error instanceof ModelNameError || error instanceof PullError || error instanceof UnknownModelError) {
    console.error(`error: ${error.message}`);
    return 1;
  }
  throw error;
}

export function listCommand(options: { json?: boolean; catalogue?: boolean }): number {
  if (options.catalogue) {
    if (options.json) console.log(JSON.stringify(CATALOGUE));
    else for (const e of CATALOGUE) console.log(`${e.name.padEnd(32)} ${e.family.padEnd(11)} ${mb(e.sizeBytes).padStart(7)}  ${e.sha256 ? 'pinned  ' : 'unpinned'}  ${e.licence}`);
    return 0;
  }
  const models = listModels();
  if (options.json) {
    console.log(JSON.stringify(models.map(({ sherpa: _files, ...m }) => m)));
    return 0;
  }
  for (const m of models) {
    const state = m.installed ? 'installed' : `NOT USABLE: ${m.reason ?? 'unknown reason'}`;
    console.log(`${m.name.padEnd(28)} ${m.engine.padEnd(12)} ${(m.family ?? (m.auto ? 'auto' : 'hmm')).padEnd(11)} ${mb(m.memoryBytes).padStart(7)}  ${state}`);
  }
  console.log(`\nAdded models live in ${addedModelsDir()}.`);
  return 0;
}

export async function addCommand(dir: string, options: { name?: string; inPlace?: boolean; json?: boolean }): Promise<number> {
  try {
    if (!options.json) console.error(`Checking ${dir} (the model is loaded once in a separate process)...`);
    const added = await addModel(dir, { name: options.name, inPlace: options.inPlace });
    report(added.name, options.json);
    return 0;
  } catch (error) {
    return fail(error);
  }
}

export function removeCommand(name: string, options: { json?: boolean }): number {
  try {
    const removed = removeModel(name);
    if (options.json) console.log(JSON.stringify({ removed: removed.name, path: removed.manifest.path }));
    else console.log(`Removed ${removed.name}${removed.manifest.path !== removed.dir ? ` (its files in ${removed.manifest.path} were left where they are)` : ''}.`);
    return 0;
  } catch (error) {
    return fail(error);
  }
}

export interface PullCommandOptions {
  name?: string;
  mirror?: string;
  sha256?: string;
  acceptUnpinned?: boolean;
  timeout?: string;
  json?: boolean;
}

export async function pullCommand(what: string, options: PullCommandOptions): Promise<number> {
  try {
    const source = resolvePullSource(what, { mirror: options.mirror, env: process.env });
    const sha256 = options.sha256 ?? source.sha256;
    if (!sha256 && !options.acceptUnpinned) {
      console.error(
        `error: no checksum is pinned for ${what}: pass --sha256 <hex> (from your mirror's records), or --accept-unpinned to trust this download and record its digest.`,
      );
      return 2;
    }
    const name = options.name ?? source.entry?.name ?? defaultModelName(path.basename(new URL(source.url).pathname).replace(/\.tar\.(bz2|gz|xz)$|\.tgz$/, ''));
    const root = addedModelsDir();
    const bar = !options.json && process.stderr.isTTY ? new cliProgress.SingleBar({ format: ' {bar} {percentage}% | {value}/{total} MB', stream: process.stderr }, cliProgress.Presets.shades_classic) : undefined;
    let lastTenth = -1;
    if (!options.json) console.error(`Downloading ${displayUrl(source.url)}${source.entry ? ` (${mb(source.entry.sizeBytes)}, ${source.entry.licence})` : ''}`);
    const pulled = await pullArchive({
      url: source.url,
      destDir: path.join(root, '.downloads'),
      sha256,
      idleTimeoutMs: options.timeout ? Number(options.timeout) * 1000 : undefined,
      onProgress: (received, total) => {
        if (options.json) return;
        if (bar && total) {
          if (lastTenth < 0) bar.start(Math.round(total / 1e6), 0);
          lastTenth = 0;
          bar.update(Math.round(received / 1e6));
        } else {
          // Not a terminal (CI, logs): a line every 10%.
          const tenth = total ? Math.floor((received / total) * 10) : Math.floor(received / 50e6);
          if (tenth > lastTenth) {
            lastTenth = tenth;
            console.error(total ? `  ${tenth * 10}% (${mb(received)} of ${mb(total)})` : `  ${mb(received)}`);
          }
        }
      },
    });
    bar?.stop();
    if (!options.json) console.error(`sha256 ${pulled.sha256} (${pulled.verified ? 'verified' : 'not pinned: recorded'}); checking the model...`);
    const added = await addModel(pulled.dir, {
      name,
      move: true,
      source: { kind: 'pulled', from: displayUrl(source.url), sha256: pulled.sha256, verified: pulled.verified },
      ...(findCatalogueEntry(name)?.description && { description: findCatalogueEntry(name)!.description }),
    });
    report(added.name, options.json);
    return 0;
  } catch (error) {
    return fail(error);
  }
}

function report(name: string, json?: boolean): void {
  const info: ModelInfo | undefined = listModels().find((m) => m.name === name);
  if (json) {
    const { sherpa: _files, ...rest } = info ?? ({} as ModelInfo);
    console.log(JSON.stringify(rest));
    return;
  }
  console.log(`Added ${name}: ${info?.family} model, ${mb(info?.memoryBytes)} when loaded, word times ${info?.wordTimes === 'model' ? 'from the model' : 'aligned by the bundled engine'}.`);
  console.log(`Use it with model=${name} on /asr/transcribe, or make it the default with the engine parameter "model".`);
}
