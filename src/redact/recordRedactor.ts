// What every part of a record's redaction shares: the rules and masker, the entities found so far (resource 14,
// by their masks only), the values found (to mask them wherever else they appear, see propagation()), and the
// fields already redacted by a shape-aware step (conversation streams, rule values, ctidata names), which the
// schema walk then leaves alone instead of searching their masks again.
import { ENTITY_CATEGORY, type Entity } from '../schema/resources/conversationItems.js';
import type { Masker, MaskRule } from './masks.js';
import { literalPattern } from './patterns.js';
import type { PhraseRule, RecordRules } from './recordRules.js';
import type { RedactionRule } from './rules.js';
import { DetectionCache, kindRules } from './spans.js';
import { textStreamSpans, type StreamSpan } from './streams.js';

const PCI_KINDS = new Set(['CreditCardNumber', 'CVV', 'ExpirationDate']);

/**
 * A value found once is masked wherever else it appears in the record, when it is distinctive enough: found
 * with this confidence at least, and at least this many letters/digits once normalised (a 3-digit CVV or a
 * short first name would mask every occurrence of a common number or word).
 */
const PROPAGATE_CONFIDENCE = 0.8;
const PROPAGATE_MIN_CHARS = 5;

export class RecordRedactor {
  private readonly done = new WeakMap<object, Set<string>>();
  private readonly kinds: ReturnType<typeof kindRules>;
  private readonly values = new Map<string, PhraseRule>();
  /**
   * The spans of each piece of free text redacted so far (text()): a record repeats short strings (a time zone
   * on every item, the same wordex forms, labels), and spans depend only on the text, the rules and the record's
   * rules, which are this redactor's for its whole life. Masks and entities are still made per occurrence.
   */
  private readonly textSpans = new Map<string, StreamSpan[]>();
  /** What spans are found with: the record's own rules, plus the values to mask wherever they appear. */
  readonly custom?: RecordRules;

  constructor(
    readonly rules: readonly RedactionRule[],
    readonly masker: Masker,
    /** The record's own rules (as sent). */
    readonly own?: RecordRules,
    /** Values found in the record (another redactor's propagation()), masked wherever they appear. */
    propagated: readonly PhraseRule[] = [],
    /** Detections made so far, shared with another pass over the same record (spans.ts). */
    readonly detections: DetectionCache = new DetectionCache(),
  ) {
    this.custom = propagated.length === 0 ? own : { phrases: [...(own?.phrases ?? []), ...propagated], kinds: own?.kinds ?? [], ignore: own?.ignore ?? [] };
    this.kinds = kindRules(rules, this.custom);
  }

  /** The entities found (resource 14, by their masks only). */
  readonly entities: Entity[] = [];

  /** The mask of a built-in kind when that kind is redacted (by the project/request or the record's rules). */
  kindRule(kind: 'Person' | 'PhoneNumber'): MaskRule | undefined {
    return this.kinds.get(kind)?.rule;
  }

  /** A value found and masked: listed as an entity (by its mask) and remembered. */
  found(rule: MaskRule, value: string, replacement: string, confidence: number, extra: Partial<Entity> = {}): void {
    this.list(rule, replacement, confidence, extra);
    this.remember(rule, value, confidence);
  }

  /** A span found and masked: listed as one entity, the values in it remembered as the rules alone found them. */
  foundSpan(span: StreamSpan, replacement: string, extra: Partial<Entity> = {}): void {
    this.list(span.rule, replacement, span.confidence, extra);
    this.rememberSpan(span);
  }

  /** A span masked again where it is not counted (formattedText repeats text): its values remembered only. */
  rememberSpan(span: StreamSpan): void {
    for (const v of span.values) this.remember(span.rule, v.value, v.confidence);
  }

  /** A value masked: listed as an entity (by its mask) only. */
  list(rule: MaskRule, replacement: string, confidence: number, extra: Partial<Entity> = {}): void {
    this.entities.push({ text: replacement, confidence, engine: 'scrubline', category: ENTITY_CATEGORY.personalData, redacted: true, isPii: true, isPci: PCI_KINDS.has(rule.kind), ...extra });
  }

  /** A value to mask wherever else it appears, when it is distinctive enough. */
  private remember(rule: MaskRule, value: string, confidence: number): void {
    if (confidence < PROPAGATE_CONFIDENCE) return;
    const pattern = literalPattern(value);
    if (!pattern || !('literal' in pattern) || pattern.literal.join('').length < PROPAGATE_MIN_CHARS) return;
    const key = pattern.literal.join(' ');
    if (!this.values.has(key)) {
      this.values.set(key, { kind: rule.kind, pattern, mask: { maskType: rule.maskType, setting: rule.setting }, redactLine: false, before: 0, after: 0 });
    }
  }

  /** The values found so far, as record phrase rules (literal, normalised: spoken and written forms match). */
  propagation(): PhraseRule[] {
    return [...this.values.values()];
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

  /** One piece of free text redacted on its own; each value found is listed with `extra` and its place. */
  text(value: string, extra: Partial<Entity> = {}): string {
    if (!/[\p{L}\p{N}]/u.test(value)) return value;
    let out = '';
    let at = 0;
    let spans = this.textSpans.get(value);
    if (!spans) {
      spans = textStreamSpans([value], this.rules, this.custom, this.detections);
      this.textSpans.set(value, spans);
    }
    for (const span of spans) {
      const { start, end } = span.parts[0];
      const replacement = this.masker.mask(span.rule, value.slice(start, end));
      out += value.slice(at, start);
      // Where the mask stands in the redacted text (the original offsets would point into text that is gone).
      this.foundSpan(span, replacement, { ...extra, offset: out.length, length: replacement.length });
      out += replacement;
      at = end;
    }
    return out + value.slice(at);
  }
}
