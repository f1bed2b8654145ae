// Redaction rules: a kind with its mask. resolveRules gives the rules of a project's active rules (real time:
// those marked `real_time`) plus the kinds named in `types` (any accepted spelling; see policy.ts), kinds
// named without a project rule masked by a Placeholder of the kind's name. A project rule with
// `active: false` adds nothing, and no longer removes a kind the request names. Work resolves its kinds with
// resolvePolicy (policy.ts); this is the plain union for callers that already know what they want.
import type { MaskType, ProjectConfig } from '../schema/resources/projectConfig.js';
import type { EntityKind } from './entityKinds.js';
import { canonicalKind, parseKinds } from './policy.js';

export interface RedactionRule {
  kind: EntityKind;
  maskType: MaskType;
  /** Placeholder: the label; MaskCharacter: the character. */
  setting: string;
}

/** `[PERSON]`, `[US_SOCIAL_SECURITY_NUMBER]`: the default label of a kind. */
export function defaultLabel(kind: string): string {
  // Asked for every record phrase of every piece of text redacted: remembered per kind (kinds are few).
  let label = labels.get(kind);
  if (label === undefined) {
    label = `[${kind.replace(/([a-z])([A-Z])/g, '$1_$2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2').toUpperCase()}]`;
    if (labels.size < 1024) labels.set(kind, label);
  }
  return label;
}

const labels = new Map<string, string>();

/** Unknown names in `types` are a 400 (never silently dropped). */
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
