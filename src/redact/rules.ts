// Which entity kinds a piece of work redacts, and how: the published project configuration's rules (resource
// 19), then the request's `types` (kinds named without a mask get a Placeholder of the kind's name). A
// project rule with `active: false` switches its kind off even when the request names it. `realTime` keeps
// only the rules marked `real_time`.
import type { MaskType, ProjectConfig } from '../schema/resources/projectConfig.js';
import { type EntityKind, isEntityKind } from './entityKinds.js';

export interface RedactionRule {
  kind: EntityKind;
  maskType: MaskType;
  /** Placeholder: the label; MaskCharacter: the character. */
  setting: string;
}

/** `[PERSON]`, `[US_SOCIAL_SECURITY_NUMBER]`: the default label of a kind. */
export function defaultLabel(kind: string): string {
  return `[${kind.replace(/([a-z])([A-Z])/g, '$1_$2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2').toUpperCase()}]`;
}

export function resolveRules(options: { project?: ProjectConfig; types?: readonly string[]; realTime?: boolean }): RedactionRule[] {
  const rules = new Map<EntityKind, RedactionRule>();
  const disabled = new Set<string>();
  for (const rule of options.project?.rules ?? []) {
    if (rule.active === false) {
      disabled.add(rule.name);
      continue;
    }
    if (!isEntityKind(rule.name)) continue;
    if (options.realTime && rule.real_time !== true) continue;
    const maskType = rule.mask_type ?? 'Placeholder';
    rules.set(rule.name, { kind: rule.name, maskType, setting: rule.setting ?? (maskType === 'MaskCharacter' ? '*' : defaultLabel(rule.name)) });
  }
  if (!options.realTime) {
    for (const type of options.types ?? []) {
      if (!isEntityKind(type) || disabled.has(type) || rules.has(type)) continue;
      rules.set(type, { kind: type, maskType: 'Placeholder', setting: defaultLabel(type) });
    }
  }
  return [...rules.values()];
}
