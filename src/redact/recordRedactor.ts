// What every part of a record's redaction shares: the rules and masker, the entities found so far (resource 14,
// by their masks only), and the fields already redacted by a shape-aware step (conversation streams, rule
// values, ctidata names), which the schema walk then leaves alone instead of searching their masks again.
import type { Entity } from '../schema/resources/conversationItems.js';
import type { Masker, MaskRule } from './masks.js';
import type { RecordRules } from './recordRules.js';
import { redactText } from './redactText.js';
import type { RedactionRule } from './rules.js';
import { kindRules } from './spans.js';

const PCI_KINDS = new Set(['CreditCardNumber', 'CVV', 'ExpirationDate']);

export class RecordRedactor {
  readonly entities: Entity[] = [];
  private readonly done = new WeakMap<object, Set<string>>();
  private readonly kinds: ReturnType<typeof kindRules>;

  constructor(
    readonly rules: readonly RedactionRule[],
    readonly masker: Masker,
    readonly custom?: RecordRules,
  ) {
    this.kinds = kindRules(rules, custom);
  }

  /** The mask of a built-in kind when that kind is redacted (by the project/request or the record's rules). */
  kindRule(kind: 'Person' | 'PhoneNumber'): MaskRule | undefined {
    return this.kinds.get(kind)?.rule;
  }

  note(kind: string, replacement: string, confidence: number, extra: Partial<Entity> = {}): void {
    this.entities.push({ text: replacement, confidence, engine: 'scrubline', redacted: true, isPii: true, isPci: PCI_KINDS.has(kind), ...extra });
  }

  /** Mark `holder[key]` as redacted already. */
  markDone(holder: object, key: string): void {
    const keys = this.done.get(holder) ?? new Set<string>();
    keys.add(key);
    this.done.set(holder, keys);
  }

  isDone(holder: object, key: string): boolean {
    return this.done.get(holder)?.has(key) === true;
  }

  /** One piece of free text redacted on its own; each value found is noted with `extra`. */
  text(value: string, extra: Partial<Entity> = {}): string {
    if (!/[\p{L}\p{N}]/u.test(value)) return value;
    const result = redactText(value, this.rules, this.masker, this.custom);
    for (const f of result.found) this.note(f.rule.kind, f.replacement, f.confidence, { ...extra, offset: f.offset, length: f.length });
    return result.text;
  }
}
