// The one redaction policy resolver: which kinds a piece of work redacts, in text and in audio, from what the
// request asks and what the project it names requires. Every path (jobs, resubmits, post-call, real-call)
// resolves here, so a request cannot get less than it asked for, nor less than its project requires:
// - kind names are the entity kinds in any letter case, trimmed; `all` or `*` is every kind; anything else is a 400;
// - a scrub flag with no kinds named means the named project's active rules, else every kind;
// - a project that scrubs requires its active rules' kinds (every kind when it has none); only an admin may
//   lower that, and the caller records the lowering as an event;
// - sensitive windows (windows/windowLevel.ts) run at their default level whenever a number kind is redacted; a
//   request may raise them (`cueWindows: true`), only an admin key may turn them off (`cueWindows: false`,
//   recorded like any lowering); any other key asking for that is refused (403).
import { invalid, ServiceError } from '../errors.js';
import type { ProjectConfig } from '../schema/resources/projectConfig.js';
import { DEFAULT_KINDS, ENTITY_KINDS, type EntityKind } from './entityKinds.js';
import { defaultLabel, type RedactionRule } from './rules.js';
import type { WindowLevel } from './windows/windowLevel.js';

/** The effective policy: what is recorded on a job or record, and what its redaction runs with. */
export interface RedactionPolicy {
  /** The kinds redacted, in ENTITY_KINDS order. */
  kinds: EntityKind[];
  /** Text redaction runs (true whenever kinds is not empty). */
  text: boolean;
  /** Audio redaction runs (jobs with audio). */
  audio: boolean;
  /** The project whose published configuration took part, and its version. */
  sid?: string;
  version?: number;
  /** An admin-scope key lowered what the project requires (or turned the default windows off). */
  lowered?: boolean;
  /**
   * Sensitive windows as asked at submit: 'full' (every cue rule), 'off' (an admin key's lowering). Absent: the
   * default level, or what the project says when the work runs (windowLevel).
   */
  windows?: Exclude<WindowLevel, 'default'>;
  /**
   * Days the job's data (or a stream's kept transcript) is kept after it ends: the shorter of the request's
   * `retentionPolicy` and the project's. Absent: kept until deleted.
   */
  retentionDays?: number;
}

/** What a request asks: kinds named (already parsed) and its scrub flags as sent (undefined: not sent). */
export interface PolicyAsk {
  kinds?: readonly EntityKind[];
  /** scrubtext, or a record's campaign.enableTextRedaction. */
  scrubtext?: boolean;
  scrubaudio?: boolean;
  /** retentionPolicy (days; 0 or absent: keep). */
  retentionDays?: number;
  /** A job's `cueWindows`: true raises the windows to every cue rule; false (admin keys only) turns them off. */
  cueWindows?: boolean;
}

/** A published project configuration in force, as the store answers it. */
export interface ProjectInForce {
  sid: string;
  version: number;
  config: ProjectConfig;
}

export const NO_REDACTION: RedactionPolicy = Object.freeze({ kinds: [], text: false, audio: false }) as RedactionPolicy;

const BY_LOWER = new Map<string, EntityKind>(ENTITY_KINDS.map((k) => [k.toLowerCase(), k]));
const VALID = `${ENTITY_KINDS.join(', ')} (any letter case), or all`;

/** A kind name as accepted: exact, any letter case, trimmed; 'all' for `all`/`*`; undefined for anything else. */
export function canonicalKind(name: string): EntityKind | 'all' | undefined {
  const lower = name.trim().toLowerCase();
  if (lower === 'all' || lower === '*') return 'all';
  return BY_LOWER.get(lower);
}

/** A field path as the problem's pointer (`/redactionRequest/types`) and path (`redactionRequest.types`). */
function issue(field: string, message: string) {
  return { pointer: `/${field.split('.').join('/')}`, path: field, message };
}

/**
 * The names in a `types` value, however it came: a JSON array, a string holding a JSON array
 * (`'["Person","CreditCardNumber"]'`), a comma-separated list, or repeated fields (an array of any of these).
 */
export function kindNames(value: unknown, field = 'types'): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((v) => kindNames(v, field));
  if (typeof value !== 'string') throw invalid(`${field} must list entity kinds as strings.`, [issue(field, 'must be a list of entity kind names')]);
  const text = value.trim();
  if (text.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw invalid(`${field} must be a JSON array or a comma-separated list of entity kinds.`, [issue(field, 'must be a list of entity kind names')]);
    }
    if (!Array.isArray(parsed) || parsed.some((v) => typeof v !== 'string')) {
      throw invalid(`${field} must be a JSON array of strings.`, [issue(field, 'must be a list of entity kind names')]);
    }
    return parsed.flatMap((v) => kindNames(v, field));
  }
  return text.split(',').map((v) => v.trim()).filter(Boolean);
}

/** The entity kinds a `types` value names (any accepted spelling), in ENTITY_KINDS order; unknown names are a 400. */
export function parseKinds(value: unknown, field = 'types'): EntityKind[] {
  const found = new Set<EntityKind>();
  const unknown: string[] = [];
  for (const name of kindNames(value, field)) {
    const kind = canonicalKind(name);
    if (kind === 'all') DEFAULT_KINDS.forEach((k) => found.add(k));
    else if (kind) found.add(kind);
    else unknown.push(name);
  }
  if (unknown.length > 0) {
    const named = unknown.map((n) => JSON.stringify(n)).join(', ');
    throw invalid(`${field}: ${named} ${unknown.length === 1 ? 'is not an entity kind' : 'are not entity kinds'}. Valid kinds: ${VALID}.`, [
      issue(field, `must be entity kinds: ${VALID}`),
    ]);
  }
  return ordered(found);
}

function ordered(kinds: Iterable<EntityKind>): EntityKind[] {
  const set = new Set(kinds);
  return ENTITY_KINDS.filter((k) => set.has(k));
}

/** The kinds of a project's active rules (real-time: those marked real_time), names canonicalised. */
function activeKinds(config: ProjectConfig, realTime: boolean): EntityKind[] {
  const kinds: EntityKind[] = [];
  for (const rule of config.rules ?? []) {
    if (rule.active === false || (realTime && rule.real_time !== true)) continue;
    const kind = canonicalKind(rule.name);
    // Publishing refuses other names; a version stored before that rule counts only its kind rules.
    if (kind && kind !== 'all') kinds.push(kind);
    else if (kind === 'all') kinds.push(...DEFAULT_KINDS);
  }
  return ordered(kinds);
}

export function projectScrubs(config: ProjectConfig | undefined): boolean {
  return config?.scrubtext === true || config?.scrubaudio === true;
}

/**
 * What a project requires of all its work: when it scrubs, its active rules' kinds (every kind when it has
 * none) and audio when scrubaudio. Real-time work: the same kinds when it scrubs, plus its active real_time
 * rules whether it scrubs or not; never audio.
 */
export function projectRequirement(project: ProjectInForce | undefined, realTime = false): { kinds: EntityKind[]; audio: boolean } {
  if (!project) return { kinds: [], audio: false };
  const config = project.config;
  const all = activeKinds(config, false);
  const scrubs = projectScrubs(config);
  if (realTime) {
    // Rules marked real_time apply to live text even when the project does not scrub; a project that scrubs
    // requires its kinds of live text as of everything else (a live message is text like any other).
    const live = activeKinds(config, true);
    if (!scrubs) return { kinds: live, audio: false };
    return { kinds: ordered([...live, ...(all.length > 0 ? all : DEFAULT_KINDS)]), audio: false };
  }
  if (!scrubs) return { kinds: [], audio: false };
  return { kinds: all.length > 0 ? all : [...DEFAULT_KINDS], audio: config.scrubaudio === true };
}

export interface ResolveOptions {
  ask: PolicyAsk;
  /** The project the request names (already checked to exist; see ProjectConfigs.forRedaction). */
  project?: ProjectInForce;
  /** An admin-scope key: its scrubtext=false / scrubaudio=false may lower what the project requires. */
  mayLower?: boolean;
  /** Real-time messages: the project's real_time rules; no audio. */
  realTime?: boolean;
}

/** The effective policy: the project's requirement plus what the request asks. */
export function resolvePolicy({ ask, project, mayLower = false, realTime = false }: ResolveOptions): RedactionPolicy {
  const required = projectRequirement(project, realTime);
  const scrubFlag = ask.scrubtext === true || ask.scrubaudio === true;
  let asked = ordered(ask.kinds ?? []);
  if (scrubFlag && asked.length === 0) {
    // Scrubbing with no kinds named: what the project's rules say scrubbing is, else every kind.
    const projectKinds = project ? activeKinds(project.config, false) : [];
    asked = projectKinds.length > 0 ? projectKinds : [...DEFAULT_KINDS];
  }
  let lowered = false;
  let requiredKinds = required.kinds;
  let requiredAudio = required.audio;
  if (mayLower && ask.scrubtext === false && (requiredKinds.length > 0 || requiredAudio)) {
    requiredKinds = [];
    requiredAudio = false;
    lowered = true;
  }
  if (mayLower && ask.scrubaudio === false && requiredAudio) {
    requiredAudio = false;
    lowered = true;
  }
  let windows: RedactionPolicy['windows'];
  if (ask.cueWindows === true) windows = 'full';
  else if (ask.cueWindows === false) {
    // Less than the defaults is an admin's decision, recorded (the job's redaction_lowered event).
    if (!mayLower) {
      throw new ServiceError(
        'forbidden',
        'cueWindows: false turns off the default redaction of spoken numbers (digits heard as "to", "for", "oh", stray digits, payment cues); only an admin-scope key may ask for that. Leave it out to get the defaults.',
        [{ pointer: '/cueWindows', path: 'cueWindows', message: 'false needs an admin-scope key' }],
      );
    }
    windows = 'off';
    lowered = true;
  }
  const audio = !realTime && (ask.scrubaudio === true || requiredAudio);
  let kinds = ordered([...requiredKinds, ...asked]);
  // Audio redaction implies text redaction of the same kinds; never audio with nothing to find.
  if (audio && kinds.length === 0) kinds = [...DEFAULT_KINDS];
  // Retention is a requirement like the kinds: a request may keep its data for less time than its project, never
  // longer, and no key lowers it.
  const retentionDays = shorterRetention(ask.retentionDays, project?.config.retentionPolicy);
  return {
    kinds,
    text: kinds.length > 0,
    audio,
    ...(project && { sid: project.sid, version: project.version }),
    ...(lowered && { lowered }),
    ...(windows && { windows }),
    ...(retentionDays !== undefined && { retentionDays }),
  };
}

/** The shorter of two retentions in days (0, absent or not a positive number: no limit). */
export function shorterRetention(a: unknown, b: unknown): number | undefined {
  const days = [a, b].filter((d): d is number => typeof d === 'number' && Number.isFinite(d) && d > 0);
  return days.length > 0 ? Math.min(...days) : undefined;
}

/** Both policies at once: what a resubmit runs with (it can never lower what the job had). */
export function unionPolicies(a: RedactionPolicy, b: RedactionPolicy): RedactionPolicy {
  const kinds = ordered([...a.kinds, ...b.kinds]);
  const sid = b.sid ?? a.sid;
  const version = b.sid ? b.version : a.version;
  return {
    kinds,
    text: kinds.length > 0,
    audio: a.audio || b.audio,
    ...(sid !== undefined && { sid }),
    ...(version !== undefined && { version }),
    ...(a.lowered && b.lowered && { lowered: true }),
    ...unionWindows(a.windows, b.windows),
    ...(shorterRetention(a.retentionDays, b.retentionDays) !== undefined && { retentionDays: shorterRetention(a.retentionDays, b.retentionDays) }),
  };
}

/** The more of two window levels: full over either; off only when both are off. */
function unionWindows(a: RedactionPolicy['windows'], b: RedactionPolicy['windows']): Pick<RedactionPolicy, 'windows'> {
  if (a === 'full' || b === 'full') return { windows: 'full' };
  return a === 'off' && b === 'off' ? { windows: 'off' } : {};
}

export function redacts(policy: RedactionPolicy): boolean {
  return policy.text || policy.audio;
}

/** A stored policy read back (job params): anything malformed counts as every kind, never as none. */
export function storedPolicy(value: unknown): RedactionPolicy | undefined {
  if (value === undefined || value === null) return undefined;
  const raw = value as Partial<RedactionPolicy>;
  const kinds = Array.isArray(raw.kinds) ? ordered(raw.kinds.map((k) => canonicalKind(String(k))).flatMap((k) => (k === 'all' ? DEFAULT_KINDS : k ? [k] : []))) : [...DEFAULT_KINDS];
  const audio = raw.audio === true;
  return {
    kinds,
    text: kinds.length > 0,
    audio,
    ...(typeof raw.sid === 'string' && { sid: raw.sid }),
    ...(typeof raw.version === 'number' && { version: raw.version }),
    ...(raw.lowered === true && { lowered: true }),
    // Anything but the two recorded levels reads as the default level (never off).
    ...((raw.windows === 'full' || (raw.windows === 'off' && raw.lowered === true)) && { windows: raw.windows }),
    ...(shorterRetention(raw.retentionDays, undefined) !== undefined && { retentionDays: shorterRetention(raw.retentionDays, undefined) }),
  };
}

/**
 * The policy a job runs with: the one resolved at submit (stored in its parameters as `redactionPolicy`)
 * together with what its project requires now, unless an admin lowered that at submit. A job stored without
 * one (queued before policies were recorded) resolves from its parameters.
 */
export function jobPolicy(
  params: { redactionPolicy?: unknown; types?: readonly string[]; scrubtext?: boolean; scrubaudio?: boolean; cueWindows?: boolean },
  project: ProjectInForce | undefined,
): RedactionPolicy {
  const stored = storedPolicy(params.redactionPolicy);
  if (!stored) {
    let kinds: EntityKind[];
    try {
      kinds = parseKinds(params.types);
    } catch {
      kinds = [...DEFAULT_KINDS];
    }
    // Raising the windows is kept; lowering them needed an admin key at submit, which is not known now.
    return resolvePolicy({ ask: { kinds, scrubtext: params.scrubtext, scrubaudio: params.scrubaudio, ...(params.cueWindows === true && { cueWindows: true }) }, project });
  }
  if (stored.lowered) return stored;
  return unionPolicies(stored, resolvePolicy({ ask: {}, project }));
}

/**
 * The masks of a policy's kinds: the project's active rule for the kind when it has one (its mask type and
 * setting), else a Placeholder of the kind's name.
 */
export function policyRules(policy: RedactionPolicy, project?: ProjectConfig): RedactionRule[] {
  const masks = new Map<EntityKind, RedactionRule>();
  for (const rule of project?.rules ?? []) {
    const kind = canonicalKind(rule.name);
    if (rule.active === false || !kind || kind === 'all' || masks.has(kind)) continue;
    const maskType = rule.mask_type ?? 'Placeholder';
    masks.set(kind, { kind, maskType, setting: rule.setting ?? (maskType === 'MaskCharacter' ? '*' : defaultLabel(kind)) });
  }
  return policy.kinds.map((kind) => masks.get(kind) ?? { kind, maskType: 'Placeholder', setting: defaultLabel(kind) });
}

/** The policy as recorded on a job or record: kinds, text, audio, the project and its version. */
export function policyRecord(policy: RedactionPolicy): RedactionPolicy {
  return {
    kinds: [...policy.kinds],
    text: policy.text,
    audio: policy.audio,
    ...(policy.sid !== undefined && { sid: policy.sid }),
    ...(policy.version !== undefined && { version: policy.version }),
    ...(policy.lowered && { lowered: true }),
    ...(policy.windows && { windows: policy.windows }),
    ...(policy.retentionDays !== undefined && { retentionDays: policy.retentionDays }),
  };
}

/**
 * The plain union of a project's active rules (real time: those marked `real_time`) and the kinds named in `types`
 * (any accepted spelling), kinds named without a project rule masked by a Placeholder of the kind's name. A project
 * rule with `active: false` adds nothing, and no longer removes a kind the request names. Work resolves its kinds
 * with resolvePolicy; this is for callers that already know what they want. Unknown names in `types` are a 400
 * (never silently dropped).
 */
export function resolveRules(options: { project?: ProjectConfig; types?: readonly string[]; realTime?: boolean }): RedactionRule[] {
  const rules = new Map<EntityKind, RedactionRule>();
  for (const rule of options.project?.rules ?? []) {
    if (rule.active === false) continue;
    if (options.realTime && rule.real_time !== true) continue;
    const kind = canonicalKind(rule.name);
    if (!kind || kind === 'all' || rules.has(kind)) continue;
    const maskType = rule.mask_type ?? 'Placeholder';
    rules.set(kind, { kind, maskType, setting: rule.setting ?? (maskType === 'MaskCharacter' ? '*' : defaultLabel(kind)) });
  }
  for (const kind of parseKinds(options.types ?? [])) {
    if (!rules.has(kind)) rules.set(kind, { kind, maskType: 'Placeholder', setting: defaultLabel(kind) });
  }
  return [...rules.values()];
}
