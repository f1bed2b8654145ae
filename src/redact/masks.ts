// What a redacted value becomes, by mask type. EntityIndex numbers distinct values per kind within one
// conversation (the same name is [PERSON_1] wherever it appears); Hash is keyed, so a value gives the same
// token across conversations without being reversible.
import crypto from 'node:crypto';
import type { MaskType } from '../schema/resources/projectConfig.js';

/**
 * What a mask needs: the kind it reports (an entity kind, or a record rule's own label such as `Custom`), the
 * mask type and its setting. RedactionRule (project/request rules) is one.
 */
export interface MaskRule {
  kind: string;
  maskType: MaskType;
  setting: string;
}

/** The rule's label without brackets: "[PERSON]" and "PERSON" both give PERSON. */
function label(rule: MaskRule): string {
  return rule.setting.replace(/^\[|\]$/g, '').trim() || rule.kind.toUpperCase();
}

export class Masker {
  private readonly indices = new Map<string, Map<string, number>>();

  constructor(private readonly hashKey: string) {}

  private normalized(value: string): string {
    return value.toLowerCase().replace(/[^a-z0-9@.]+/g, ' ').trim();
  }

  /** The replacement text for `value`; '' for Remove. */
  mask(rule: MaskRule, value: string): string {
    switch (rule.maskType) {
      case 'Remove':
        return '';
      case 'MaskCharacter': {
        const char = rule.setting.charAt(0) || '*';
        return value.replace(/[^\s]/g, char);
      }
      case 'EntityIndex': {
        const byValue = this.indices.get(rule.kind) ?? new Map<string, number>();
        this.indices.set(rule.kind, byValue);
        const key = this.normalized(value);
        if (!byValue.has(key)) byValue.set(key, byValue.size + 1);
        return `[${label(rule)}_${byValue.get(key)}]`;
      }
      case 'Hash': {
        const digest = crypto.createHmac('sha256', this.hashKey).update(`${rule.kind}:${this.normalized(value)}`).digest('hex').slice(0, 12);
        return `[${label(rule)}:${digest}]`;
      }
      default:
        return rule.setting;
    }
  }
}
