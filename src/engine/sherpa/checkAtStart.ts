// At start, models added earlier are load-checked again (in child processes, one after another, in the
// background) when their files changed since their last check or were never checked: a model replaced or
// damaged behind the service's back must show up at /asr/status with the reason, not take a job's process
// down with it. Serving never waits for this.
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { SherpaModelSpec } from './modelFolder.js';
import { probeModel } from './probe.js';
import { listAddedModels, writeManifest } from './registry.js';

/** The model's files by name and size: what a replaced or truncated file changes. */
export function filesSignature(spec: SherpaModelSpec): string {
  return Object.values(spec.files)
    .filter((f): f is string => typeof f === 'string')
    .sort()
    .map((f) => {
      try {
        return `${path.basename(f)}:${fs.statSync(f).size}`;
      } catch {
        return `${path.basename(f)}:missing`;
      }
    })
    .join('|');
}

export async function checkAddedModels(logger: Logger, options: { probe?: typeof probeModel } = {}): Promise<number> {
  let checked = 0;
  for (const model of listAddedModels()) {
    const spec = model.spec;
    if (!spec) continue; // folder broken: listed with the inspection's reason
    const signature = filesSignature(spec);
    if (model.manifest.probe?.signature === signature) continue;
    const probe = await (options.probe ?? probeModel)(spec);
    writeManifest(model.dir, { ...model.manifest, probe: { ...probe, signature } });
    checked++;
    if (probe.ok) logger.info({ model: model.name, loadSeconds: probe.loadSeconds }, 'model load-checked');
    else logger.warn({ model: model.name, reason: probe.reason }, 'model failed its load check; jobs cannot use it');
  }
  return checked;
}

export function checkAddedModelsInBackground(logger: Logger): void {
  checkAddedModels(logger).catch((error) => logger.warn({ err: (error as Error).message }, 'checking added models failed'));
}
