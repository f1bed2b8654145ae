// Redaction rules: a kind with its mask, and a kind's default label. Which rules a piece of work gets is
// policy.ts's (resolvePolicy, policyRules, resolveRules): this file depends on nothing of it.
import type { MaskType } from '../schema/resources/projectConfig.js';
import type { EntityKind } from './entityKinds.js';

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
