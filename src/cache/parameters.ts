// System and project parameters. A value is validated by the type of the field it names (engine parameters
// of resource 20, system settings of resource 16); credential values are sealed before they are stored and
// masked when read. Reading resolves project -> published configuration -> system -> default.
import Type from 'typebox';
import { invalid, notFound } from '../errors.js';
import { installedModels, isAutoModel, type ModelInfo } from '../engine/models.js';
import { defaultEngineParams, isEngineParam } from '../engine/params.js';
import { EngineParamFields } from '../schema/resources/engineParams.js';
import { SystemSettings } from '../schema/resources/systemSettings.js';
import { check } from '../schema/validator.js';
import type { FieldIssue } from '../schema/problem.js';
import { WebhookSecretError, secretKey } from '../jobs/notifications/signing.js';
import { maskCredentials, openCredentials, protectCredentials } from '../security/credentials.js';
import type { SecretBox } from '../security/secretBox.js';
import type { Store } from '../store/index.js';
import type { ProjectConfigs } from './projectConfigs.js';
import { checkEndpoint } from '../jobs/cloud/buckets.js';
import { PUBLIC_ONLY, type TargetPolicy } from '../jobs/notifications/targetPolicy.js';

export type ParameterSource = 'project' | 'project-config' | 'system' | 'default';

export interface ParameterValue {
  name: string;
  sid?: string;
  value: unknown;
  source: ParameterSource;
  updatedAt?: string;
}

const SETTINGS_FIELDS = SystemSettings.properties as Record<string, object>;

function isSettingsField(name: string): boolean {
  return Object.hasOwn(SETTINGS_FIELDS, name);
}

/** The schema a parameter's value must satisfy, when the interface types it. */
function schemaFor(name: string): object | undefined {
  if (isEngineParam(name)) return EngineParamFields[name];
  if (name === WEBHOOK_SECRETS) return WebhookSecrets;
  if (isSettingsField(name)) return SETTINGS_FIELDS[name];
  return undefined;
}

/**
 * `webhookSecrets`: the notification signing secrets of a project (sid) or of the system, `whsec_<base64>`;
 * two during a rotation (each signs: receivers verify with either). Sealed at rest, masked when read.
 */
export const WEBHOOK_SECRETS = 'webhookSecrets';
const WebhookSecrets = Type.Array(Type.String({ minLength: 38, maxLength: 1024, pattern: '^whsec_[A-Za-z0-9+/]+={0,2}$' }), { minItems: 1, maxItems: 2 });
const CLOUD_FIELDS = ['endpoint', 'region', 'bucket', 'folder', 'apiKeyCloud', 'secretKeyCloud'];

const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/;

export class Parameters {
  constructor(
    private readonly store: Store,
    private readonly projects: ProjectConfigs,
    private readonly box: SecretBox,
    private readonly dataDir: string,
    private readonly installed: () => ModelInfo[] = installedModels,
    /** Which hosts a bucket endpoint may be (the outbound target policy); absent: public hosts only. */
    private readonly policy: TargetPolicy = PUBLIC_ONLY,
  ) {}

  /** A bucket endpoint set by an administrator meets the rules a job's does (cloud/buckets.ts checkEndpoint). */
  private endpointIssues(value: unknown, pointer: string): FieldIssue[] {
    if (typeof value !== 'string' || value === '') return [];
    try {
      checkEndpoint(value, this.policy);
      return [];
    } catch (error) {
      return [{ pointer, path: pointer.slice(1).replace(/\//g, '.'), message: (error as Error).message }];
    }
  }

  /** A default `model` must be one a job can run with: installed (or auto), never a silent fallback later. */
  private modelIssues(value: unknown): FieldIssue[] {
    if (typeof value !== 'string' || isAutoModel(value)) return [];
    const names = this.installed().map((m) => m.name);
    if (names.includes(value)) return [];
    return [{ pointer: '/value', path: 'value', message: `model "${value}" is not installed; installed: ${names.join(', ') || '(none)'}` }];
  }

  validate(name: unknown, value: unknown, sid: unknown): FieldIssue[] {
    const issues: FieldIssue[] = [];
    if (typeof name !== 'string' || !NAME_PATTERN.test(name)) {
      issues.push({ pointer: '/name', path: 'name', message: 'must be a parameter name (letters, digits, _ . -; at most 128)' });
      return issues;
    }
    if (value === undefined) issues.push({ pointer: '/value', path: 'value', message: 'is required' });
    if (sid !== undefined && (typeof sid !== 'string' || sid === '')) {
      issues.push({ pointer: '/sid', path: 'sid', message: 'must be a non-empty string' });
    }
    if (name === 'systemSettings') {
      issues.push(...check('SystemSettings', value, '/value'));
      if (issues.length === 0) issues.push(...this.endpointIssues((value as { endpoint?: unknown }).endpoint, '/value/endpoint'));
    } else if (name === 'endpoint') {
      issues.push(...this.endpointIssues(value, '/value'));
    } else {
      const schema = schemaFor(name);
      if (schema && value !== undefined) issues.push(...check(schema as never, value, '/value'));
      if (name === 'model' && issues.length === 0) issues.push(...this.modelIssues(value));
      if (name === WEBHOOK_SECRETS && issues.length === 0) issues.push(...secretIssues(value as string[]));
    }
    return issues;
  }

  /** The stored form of a value: credentials sealed (any shape), as in every record. */
  private seal(name: string, value: unknown): unknown {
    return protectCredentials({ [name]: value }, this.box).sealed[name];
  }

  /** The answered form of a stored value: credentials masked as in every record. */
  private reveal(name: string, value: unknown): unknown {
    return maskCredentials({ [name]: value }, this.box)[name];
  }

  /** Set one parameter, or every field of `systemSettings` at once. */
  async set(input: { name: unknown; value: unknown; sid?: unknown }): Promise<ParameterValue[]> {
    const issues = this.validate(input.name, input.value, input.sid);
    if (issues.length > 0) throw invalid('The parameter was not set.', issues);
    const name = input.name as string;
    const sid = (input.sid as string | undefined) ?? '';
    const entries: [string, unknown][] =
      name === 'systemSettings' ? Object.entries(input.value as Record<string, unknown>) : [[name, input.value]];
    const out: ParameterValue[] = [];
    for (const [key, value] of entries) {
      const stored = await this.store.parameters.set(sid, key, this.seal(key, value));
      out.push({ name: key, ...(sid && { sid }), value: this.reveal(key, stored.value), source: sid ? 'project' : 'system', updatedAt: stored.updatedAt });
    }
    // The event names the parameters, never their values.
    await this.store.events.record({
      type: sid ? 'project' : 'system',
      subType: 'parameter_set',
      subject: sid || 'system',
      status: 'completed',
      details: { names: entries.map(([key]) => key), ...(sid && { sid }) },
    });
    return out;
  }

  /**
   * Unset a parameter of a scope (the system's, or a project's given a sid): reading it falls back to the next
   * source again (published configuration, system, default). Answers the value now in force (null when no source
   * gives one); 404 when it was not set.
   */
  async unset(input: { name: string; sid?: string }): Promise<ParameterValue | null> {
    const sid = input.sid ?? '';
    const removed = await this.store.parameters.delete(sid, input.name);
    if (!removed) throw notFound(`parameter "${input.name}" is not set ${sid ? `for project "${sid}"` : 'for the system'}`);
    await this.store.events.record({
      type: sid ? 'project' : 'system',
      subType: 'parameter_unset',
      subject: sid || 'system',
      status: 'completed',
      details: { names: [input.name], ...(sid && { sid }) },
    });
    try {
      return await this.get(input.name, input.sid);
    } catch (error) {
      // Nothing else sets it: it is unset everywhere, which is what was asked.
      if ((error as { kind?: string }).kind === 'not_found') return null;
      throw error;
    }
  }

  async get(name: string, sid?: string): Promise<ParameterValue> {
    if (sid) {
      const own = await this.store.parameters.get(sid, name);
      if (own) return { name, sid, value: this.reveal(name, own.value), source: 'project', updatedAt: own.updatedAt };
      const project = await this.projects.current(sid);
      if (project && Object.hasOwn(project.config, name)) {
        const value = (project.config as Record<string, unknown>)[name];
        return { name, sid, value: this.reveal(name, value), source: 'project-config', updatedAt: project.publishedAt };
      }
    }
    const system = await this.store.parameters.get('', name);
    if (system) return { name, ...(sid && { sid }), value: this.reveal(name, system.value), source: 'system', updatedAt: system.updatedAt };
    const defaults = defaultEngineParams(this.dataDir) as Record<string, unknown>;
    if (Object.hasOwn(defaults, name)) return { name, ...(sid && { sid }), value: defaults[name], source: 'default' };
    throw notFound(`parameter "${name}" is not set${sid ? ` for project "${sid}" nor` : ''} for the system and has no default`);
  }

  /** Every parameter set in a scope (a project's own, or the system's), values masked where secret. */
  async list(sid?: string): Promise<ParameterValue[]> {
    const rows = await this.store.parameters.list(sid ?? '');
    return rows.map((row) => ({
      name: row.name,
      ...(sid && { sid }),
      value: this.reveal(row.name, row.value),
      source: sid ? 'project' : 'system',
      updatedAt: row.updatedAt,
    }));
  }

  /**
   * The notification signing secrets in clear (for the outbox only): the project's `webhookSecrets`, else the
   * system's, else undefined (the service's own secret).
   */
  async webhookSecrets(sid?: string | null): Promise<string[] | undefined> {
    const scopes = sid ? [sid, ''] : [''];
    for (const scope of scopes) {
      const row = await this.store.parameters.get(scope, WEBHOOK_SECRETS);
      if (row) return openCredentials({ [WEBHOOK_SECRETS]: row.value }, this.box)[WEBHOOK_SECRETS] as string[];
    }
    return undefined;
  }

  /** Engine parameters in force: defaults overridden by system parameters (and a project's, given a sid). */
  async engineParams(sid?: string): Promise<Record<string, unknown>> {
    const params: Record<string, unknown> = { ...defaultEngineParams(this.dataDir) };
    for (const row of await this.store.parameters.list('')) if (isEngineParam(row.name)) params[row.name] = row.value;
    if (sid) for (const row of await this.store.parameters.list(sid)) if (isEngineParam(row.name)) params[row.name] = row.value;
    return params;
  }

  /**
   * The cloud storage settings in force for a project (endpoint, region, bucket, folder, apiKeyCloud,
   * secretKeyCloud): the project's own parameters over the system's. Credentials OPENED: for the service's own
   * use (a bucket client), never to be answered or logged.
   */
  async cloudSettings(sid?: string): Promise<Partial<Record<'endpoint' | 'region' | 'bucket' | 'folder' | 'apiKeyCloud' | 'secretKeyCloud', string>>> {
    const out: Record<string, string> = {};
    const scopes = sid ? ['', sid] : [''];
    for (const scope of scopes) {
      for (const row of await this.store.parameters.list(scope)) {
        if (!CLOUD_FIELDS.includes(row.name) || typeof row.value !== 'string' || row.value === '') continue;
        out[row.name] = openCredentials({ [row.name]: row.value }, this.box)[row.name] as string;
      }
    }
    return out;
  }

  /** Resource 16 from the system parameters that name its fields; credentials masked. */
  async systemSettings(): Promise<Record<string, unknown>> {
    const settings: Record<string, unknown> = {};
    for (const row of await this.store.parameters.list('')) {
      if (isSettingsField(row.name)) settings[row.name] = this.reveal(row.name, row.value);
    }
    return settings;
  }
}

/** Each secret must give a usable key (the message never quotes it). */
function secretIssues(secrets: string[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  secrets.forEach((secret, i) => {
    try {
      secretKey(secret);
    } catch (error) {
      if (!(error instanceof WebhookSecretError)) throw error;
      issues.push({ pointer: `/value/${i}`, path: `value[${i}]`, message: error.message });
    }
  });
  return issues;
}
