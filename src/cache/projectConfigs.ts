// Project configurations (resource 19): published as new versions, in force for new work at once. The
// version in force is cached per process; a publish invalidates it everywhere through the bus, and a short
// lifetime bounds staleness where no bus connects the processes.
import { compileLexicon } from '../conversation/callOutcomes/lexicon.js';
import { compileInsights, markValidated } from '../conversation/insights/definitions.js';
import { limit, named, PROJECT_INSIGHTS, PROJECT_RULES } from '../workLimits.js';
import { sql } from 'kysely';
import { describeJsonError, invalid, notFound } from '../errors.js';
import { ENTITY_KINDS } from '../redact/entityKinds.js';
import { canonicalKind } from '../redact/policy.js';
import type { ProjectConfig } from '../schema/resources/projectConfig.js';
import { check } from '../schema/validator.js';
import { protectCredentials, restoreMaskedCredentials } from '../security/credentials.js';
import type { SecretBox } from '../security/secretBox.js';
import type { ProjectVersion } from '../store/projectVersions.js';
import type { Store } from '../store/index.js';
import type { InvalidationBus } from './invalidationBus.js';


export interface PublishResult {
  sid: string;
  version: number;
  rules: ProjectConfig['rules'];
  publishedAt: string;
  /** Kept for clients that read it: always empty, since a rule that names no entity kind refuses the publish. */
  warnings: string[];
}

export class ProjectConfigs {
  private readonly cache = new Map<string, { value: ProjectVersion | undefined; at: number }>();
  hits = 0;
  misses = 0;

  constructor(
    private readonly store: Store,
    private readonly bus: InvalidationBus,
    private readonly box: SecretBox,
    private readonly ttlMs = 5000,
  ) {
    bus.subscribe((key) => {
      if (key.startsWith('project:')) this.cache.delete(key.slice('project:'.length));
    });
  }

  /** Parse and validate `data` whole; nothing is stored unless all of it is valid. */
  parse(data: string): ProjectConfig {
    let config: unknown;
    try {
      config = JSON.parse(data);
    } catch (error) {
      throw invalid(describeJsonError(error as Error, 'data'), [
        { pointer: '/data', path: 'data', message: 'must be a JSON document (the project configuration as a string)' },
      ]);
    }
    if (config === null || typeof config !== 'object' || Array.isArray(config)) {
      throw invalid('data must hold a JSON object (the project configuration)', [
        { pointer: '/data', path: 'data', message: 'must be a JSON object' },
      ]);
    }
    const issues = check('ProjectConfig', config, '/data');
    if (issues.length > 0) throw invalid('The project configuration is invalid; the previous version stays in force.', issues);
    const canonical = canonicalRules(config as ProjectConfig);
    // Copies of a rule add nothing (resolved once per kind); past the limit, distinct rules are refused.
    const distinct = new Set((canonical.rules ?? []).map((r) => JSON.stringify([r.name, r.mask_type, r.setting, r.active, r.real_time]))).size;
    if (distinct > limit(PROJECT_RULES)) {
      const message = `${distinct} distinct rules; a project holds ${named(PROJECT_RULES)}`;
      throw invalid(`Too many rules in the project configuration: ${message}; the previous version stays in force.`, [{ pointer: '/data/rules', path: 'data.rules', message }]);
    }
    // Every insight must parse: one that cannot would never be found, and a compliance check would pass silently.
    const compiled = compileInsights(canonical.insights, '/data/insights', PROJECT_INSIGHTS);
    // Every issue / outcome / action-item phrase must parse: one that cannot would never be found.
    compileLexicon(canonical.callOutcomes, '/data/callOutcomes');
    return canonical.insights ? { ...canonical, insights: markValidated(canonical.insights, compiled) } : canonical;
  }

  /**
   * Credentials are sealed at rest like every credential. A configuration edited from its masked form (as the
   * versions route and the console show it) keeps the stored credential wherever the mask is unchanged; a mask
   * that matches nothing stored at its place is refused, never stored as the credential.
   */
  async publish(data: string): Promise<PublishResult> {
    const parsed = this.parse(data);
    const previous = await this.store.projects.latest(parsed.sid);
    const { record: restored, unmatched } = restoreMaskedCredentials(parsed, previous?.config, this.box);
    if (unmatched.length > 0) {
      throw invalid(
        'A credential in data is still masked (as the service answers it) and does not match the one stored at that place: give the credential itself, or leave the mask unchanged to keep the stored one; the previous version stays in force.',
        unmatched.map((pointer) => ({ pointer: `/data${pointer}`, path: `data${pointer.replace(/\//g, '.')}`, message: 'must be the credential, not its mask' })),
      );
    }
    const config = protectCredentials(restored, this.box).sealed;
    const published = await this.store.projects.publish(config);
    this.cache.set(config.sid, { value: published, at: Date.now() });
    await this.bus.publish(`project:${config.sid}`);
    await this.store.events.record({
      type: 'project',
      subType: 'published',
      subject: config.sid,
      status: 'completed',
      message: `project ${config.sid} version ${published.version} published`,
      details: { sid: config.sid, version: published.version, rules: (config.rules ?? []).length },
    });
    const warnings: string[] = [];
    if (config.cueWindows?.enabled === false) {
      // Less than the defaults (redact/windows/windowLevel.ts): an admin's decision (publishing needs an admin key), recorded.
      const message = `project ${config.sid} version ${published.version} turns off the default redaction of spoken numbers (cueWindows.enabled: false): digits heard as look-alikes, stray digits and payment cues are no longer redacted`;
      warnings.push(message);
      await this.store.events.record({ type: 'project', subType: 'redaction_lowered', subject: config.sid, status: 'completed', message, details: { sid: config.sid, version: published.version, windows: 'off' } });
    }
    return { sid: config.sid, version: published.version, rules: config.rules ?? [], publishedAt: published.publishedAt, warnings };
  }

  /** The version in force for a project, or undefined when none was published. */
  async current(sid: string): Promise<ProjectVersion | undefined> {
    const cached = this.cache.get(sid);
    if (cached && Date.now() - cached.at < this.ttlMs) {
      this.hits++;
      return cached.value;
    }
    this.misses++;
    const value = await this.store.projects.latest(sid);
    this.cache.set(sid, { value, at: Date.now() });
    return value;
  }

  /**
   * The project a request's redaction depends on (`sid`, exact match): a sid that names no published
   * configuration is a 400 at `field`, suggesting a published sid that differs only in letter case.
   */
  async forRedaction(sid: string, field = 'sid'): Promise<ProjectVersion> {
    const found = await this.current(sid);
    if (found) return found;
    const variant = await this.store.database.db
      .selectFrom('project_versions')
      .select('sid')
      .where(sql<string>`lower(sid)`, '=', sid.toLowerCase())
      .limit(1)
      .executeTakeFirst();
    const hint = variant ? ` (sids match exactly; did you mean "${variant.sid}"?)` : '';
    throw invalid(`${field}: no project configuration has been published for sid "${sid}"${hint}; redaction cannot follow it.`, [
      { pointer: `/${field.split('.').join('/')}`, path: field, message: 'must name a published project configuration' },
    ]);
  }

  async require(sid: string): Promise<ProjectVersion> {
    const found = await this.current(sid);
    if (!found) throw notFound(`no project configuration has been published for sid "${sid}"`);
    return found;
  }

  cachedCount(): number {
    return this.cache.size;
  }
}

/**
 * Rule names canonicalised to the entity kinds (any letter case, trimmed); a rule naming anything else
 * refuses the whole configuration, since a rule that matches nothing would redact nothing, silently.
 */
function canonicalRules(config: ProjectConfig): ProjectConfig {
  if (!config.rules) return config;
  const issues = [];
  const rules = [];
  for (const [index, rule] of config.rules.entries()) {
    const kind = canonicalKind(rule.name);
    if (kind && kind !== 'all') {
      rules.push({ ...rule, name: kind });
      continue;
    }
    issues.push({
      pointer: `/data/rules/${index}/name`,
      path: `data.rules[${index}].name`,
      message: `must be an entity kind: ${ENTITY_KINDS.join(', ')} (any letter case)`,
    });
  }
  if (issues.length > 0) {
    const names = issues.map((i) => JSON.stringify(config.rules![Number(i.pointer.split('/')[3])].name)).join(', ');
    throw invalid(`Rule names must be entity kinds; ${names} ${issues.length === 1 ? 'is' : 'are'} not. Nothing was published. Valid kinds: ${ENTITY_KINDS.join(', ')}.`, issues);
  }
  return { ...config, rules };
}
