// What /asr/status says of the service as a whole, from what was measured when asked: `ok` only when every
// part a job needs answers. `unavailable`: no job can run (the database does not answer, no speech model is
// installed). `degraded`: some jobs cannot run or wait (the default model or an added model cannot be used,
// no process runs jobs). Each problem is told in words.

export type ServiceState = 'ok' | 'degraded' | 'unavailable';

export interface StatusFacts {
  store: { reachable: boolean; error?: string };
  /** Installed models that decode (en-us:auto left out). */
  installedModels: string[];
  /** Models operators added that cannot be used now (broken folder, failed load check), with why. */
  unusableAddedModels: { model: string; reason: string }[];
  /** The default model (engine parameter `model`) and whether it can be used; undefined when unknown. */
  defaultModel?: { name: string; installed: boolean };
  /** Processes whose job worker reported recently (heartbeat); undefined when unknown. */
  workerProcesses?: number;
}

export function assessStatus(facts: StatusFacts): { status: ServiceState; problems: string[] } {
  const down: string[] = [];
  const impaired: string[] = [];
  if (!facts.store.reachable) down.push(`the database does not answer${facts.store.error ? `: ${facts.store.error}` : ''}`);
  if (facts.installedModels.length === 0) down.push('no speech model is installed (engine.reason says why)');
  if (facts.defaultModel && !facts.defaultModel.installed && facts.installedModels.length > 0) {
    impaired.push(`the default model ${facts.defaultModel.name} cannot be used: jobs that name no model are refused`);
  }
  for (const { model, reason } of facts.unusableAddedModels) impaired.push(`model ${model} cannot be used: ${reason}`);
  if (facts.workerProcesses === 0) impaired.push('no process runs jobs (no worker heartbeat): submitted jobs wait in the queue');
  const problems = [...down, ...impaired];
  return { status: down.length > 0 ? 'unavailable' : impaired.length > 0 ? 'degraded' : 'ok', problems };
}
