// The redaction rules a conversation record carries itself (resource 10 `redactionTypes[].rules`, resource 15
// `contentGroups[].contentItems`), read into plain values the span finder uses. Anything inactive or deleted —
// a rule, its redactionType, a content item or its group — is left out here, so that it does nothing at all:
// an inactive record rule never switches off a kind that the project or the request asks for.
import { MASK_TYPES, type MaskType } from '../schema/resources/projectConfig.js';
import { ENTITY_KINDS, type EntityKind } from './entityKinds.js';
import type { FieldIssue } from '../schema/problem.js';
import { invalid } from '../errors.js';
import { limit, named, RECORD_REGEX_RULES, RECORD_RULES } from '../workLimits.js';
import { literalPattern, regexPattern, regexProblem, type Pattern } from './patterns.js';

/** A mask given by the record; absent fields fall back to the kind's own mask (see spans.ts). */
export interface RecordMask {
  maskType?: MaskType;
  setting?: string;
}

/** A value to redact wherever it appears: a rule with a `value`, or a content item without `ignore`. */
export interface PhraseRule {
  /** The kind reported for a match: the rule's `type` / the item's `typeName`, else `Custom`. */
  kind: string;
  pattern: Pattern;
  mask: RecordMask;
  /** Redact the whole utterance/line holding a match. */
  redactLine: boolean;
  /** Words redacted before / after a match, within its line. */
  before: number;
  after: number;
}

/** A rule with an empty `value` whose `type` is a built-in kind: switch that kind on, with a threshold. */
export interface KindRule {
  kind: EntityKind;
  mask: RecordMask;
  /** Detections of the kind below this confidence (0..1) are left alone. */
  minConfidence: number;
}

export interface RecordRules {
  phrases: PhraseRule[];
  kinds: KindRule[];
  /** Allow-list: content items with `ignore: true`. Never redacted, whoever finds them. */
  ignore: Pattern[];
}

export interface RuleInput {
  value?: string;
  type?: string;
  typeId?: string;
  maskType?: string;
  setting?: string;
  active?: boolean;
  isDeleted?: boolean;
  redactLine?: boolean;
  confidence?: number;
  redactBefore?: number;
  redactAfter?: number;
}
export interface RecordInput {
  redactionTypes?: readonly { name?: string; active?: boolean; isDeleted?: boolean; rules?: readonly RuleInput[] }[];
  contentGroups?: readonly {
    active?: boolean;
    isDeleted?: boolean;
    contentItems?: readonly { value?: string; typeName?: string; active?: boolean; ignore?: boolean; isDeleted?: boolean }[];
  }[];
}

/** Context words are capped: a rule is about the words around a value, not a whole call. */
const MAX_CONTEXT_WORDS = 100;
/** `type`/`typeId` values that mark `value` as a regular expression written without slashes. */
const REGEX_MARKERS = new Set(['regex', 'regexp', 'pattern']);

export const on = (item: { active?: boolean; isDeleted?: boolean }) => item.active !== false && item.isDeleted !== true;

/** A built-in kind named in any letter case ("person" is Person). */
export function builtInKind(name: string | undefined): EntityKind | undefined {
  const lower = name?.trim().toLowerCase();
  return lower ? ENTITY_KINDS.find((k) => k.toLowerCase() === lower) : undefined;
}

export function maskOf(rule: { maskType?: string; setting?: string }): RecordMask {
  const maskType = MASK_TYPES.find((m) => m.toLowerCase() === rule.maskType?.trim().toLowerCase());
  return { ...(maskType && { maskType }), ...(rule.setting && { setting: rule.setting }) };
}

const words = (n: number | undefined) => (typeof n === 'number' && n > 0 ? Math.min(MAX_CONTEXT_WORDS, Math.floor(n)) : 0);

/** Confidence as 0..1; a value above 1 is read as a percentage (80 is 0.8). */
const threshold = (c: number | undefined) => (typeof c === 'number' && c > 0 ? (c > 1 ? Math.min(1, c / 100) : c) : 0);

/**
 * A rule's value is a regular expression when written `/source/flags`, or when its `typeId` or `type` is
 * `regex` (then the whole value is the source, matched case-insensitively); otherwise it is a literal phrase.
 */
export function isRegexRule(rule: RuleInput): boolean {
  return /^\/(.+)\/([a-z]*)$/s.test(rule.value ?? '') || REGEX_MARKERS.has(rule.typeId?.toLowerCase() ?? '') || REGEX_MARKERS.has(rule.type?.toLowerCase() ?? '');
}

function patternOf(rule: RuleInput): Pattern | undefined {
  const value = rule.value ?? '';
  const slashed = /^\/(.+)\/([a-z]*)$/s.exec(value);
  if (slashed) return regexPattern(slashed[1], slashed[2]);
  return isRegexRule(rule) ? regexPattern(value, 'i') : literalPattern(value);
}

/** The kind a rule with a value reports: its `type` (a built-in kind in its canonical spelling), else Custom. */
export function ruleKind(rule: RuleInput): string {
  const type = rule.type?.trim();
  return type && !REGEX_MARKERS.has(type.toLowerCase()) ? (builtInKind(type) ?? type) : 'Custom';
}

/** The kind a content item reports: its `typeName`, else Custom. */
export function itemKind(item: { typeName?: string }): string {
  return builtInKind(item.typeName) ?? (item.typeName?.trim() || 'Custom');
}

/** typeNames of content items that are phrases for categories and insights, not values to hide. */
const ANALYTICS_TYPE_NAMES = /^(phrase|keyphrase|key phrase|keyword|topic|intent|category|expression|word|term|sentence|utterance)s?$/i;

/**
 * Content groups often hold the phrases that categories and insights look for (typeName "phrase": "lost my
 * card"); those are not secrets and are left alone. Any other item (a kind name, "Custom", a name of the
 * operator's own, or none) is a value to always redact; `ignore: true` items are an allow-list in any group.
 */
export function isRedactionItem(item: { typeName?: string }): boolean {
  return !ANALYTICS_TYPE_NAMES.test(item.typeName?.trim() ?? '');
}

/** What makes two value rules the same rule (a copy of one adds nothing: it is collapsed, never counted). */
const ruleKey = (rule: RuleInput) =>
  JSON.stringify(['rule', rule.value, rule.type, rule.typeId, rule.maskType, rule.setting, rule.redactLine === true, words(rule.redactBefore), words(rule.redactAfter)]);
const itemKey = (item: { value?: string; typeName?: string; ignore?: boolean }) => JSON.stringify(['item', item.value, item.typeName, item.ignore === true]);

/** The distinct value rules and regular-expression rules a record carries (active ones, copies collapsed). */
export function distinctRuleCounts(record: RecordInput): { rules: number; regex: number } {
  const all = new Set<string>();
  const regex = new Set<string>();
  for (const group of record.redactionTypes ?? []) {
    if (!on(group)) continue;
    for (const rule of group.rules ?? []) {
      if (!on(rule) || !rule.value?.trim()) continue;
      const key = ruleKey(rule);
      all.add(key);
      if (isRegexRule(rule)) regex.add(key);
    }
  }
  for (const group of record.contentGroups ?? []) {
    if (!on(group)) continue;
    // Phrases for categories and insights (typeName phrase, keyword, ...) are no rules: redaction never reads them.
    for (const item of group.contentItems ?? []) if (on(item) && item.value?.trim() && (item.ignore === true || isRedactionItem(item))) all.add(itemKey(item));
  }
  return { rules: all.size, regex: regex.size };
}

/**
 * Refuses (400 naming the limit) a record with more distinct value rules, or regular-expression rules, than the
 * limits (workLimits.ts): each is a pass over the whole record, and their matches are held until it is masked.
 */
export function checkRuleCounts(record: RecordInput): void {
  const counts = distinctRuleCounts(record);
  const over = [
    { count: counts.rules, most: RECORD_RULES, what: 'distinct value rules (redactionTypes rules with a value and contentGroups items)', pointer: '/redactionTypes' },
    { count: counts.regex, most: RECORD_REGEX_RULES, what: 'distinct regular-expression rules', pointer: '/redactionTypes' },
  ].find((c) => c.count > limit(c.most));
  if (!over) return;
  const message = `${over.count} ${over.what}; a record carries ${named(over.most)}`;
  throw invalid(`Too many redaction rules in the record: ${message}.`, [{ pointer: over.pointer, path: over.pointer.slice(1), message }]);
}

/**
 * The record's regular-expression rules that cannot be used, as field issues (the record is refused with them:
 * a compliance rule silently skipped would let the values it was written for through). Too many rules are
 * refused first (checkRuleCounts), before any is compiled.
 */
export function recordRuleIssues(record: RecordInput): FieldIssue[] {
  checkRuleCounts(record);
  const issues: FieldIssue[] = [];
  const seen = new Set<string>();
  (record.redactionTypes ?? []).forEach((group, i) => {
    if (!on(group)) return;
    (group.rules ?? []).forEach((rule, j) => {
      if (!on(rule) || !rule.value?.trim() || !isRegexRule(rule)) return;
      const key = ruleKey(rule);
      if (seen.has(key)) return;
      seen.add(key);
      const slashed = /^\/(.+)\/([a-z]*)$/s.exec(rule.value);
      const problem = slashed ? regexProblem(slashed[1], slashed[2]) : regexProblem(rule.value, 'i');
      if (problem) issues.push({ pointer: `/redactionTypes/${i}/rules/${j}/value`, path: `redactionTypes[${i}].rules[${j}].value`, message: problem });
    });
  });
  return issues;
}

/** The record's rules as the span finder uses them; copies of a rule (or of a content item) are read once. */
export function recordRules(record: RecordInput): RecordRules {
  const out: RecordRules = { phrases: [], kinds: [], ignore: [] };
  const seen = new Set<string>();
  const first = (key: string) => !seen.has(key) && !!seen.add(key);
  for (const group of record.redactionTypes ?? []) {
    if (!on(group)) continue;
    for (const rule of group.rules ?? []) {
      if (!on(rule)) continue;
      if (!first(rule.value?.trim() ? ruleKey(rule) : JSON.stringify(['kind', rule.type, rule.maskType, rule.setting, rule.confidence]))) continue;
      if (!rule.value?.trim()) {
        // No value: the rule is about a built-in kind (switch it on, with a confidence floor), or nothing.
        const kind = builtInKind(rule.type);
        if (kind) out.kinds.push({ kind, mask: maskOf(rule), minConfidence: threshold(rule.confidence) });
        continue;
      }
      const pattern = patternOf(rule);
      if (!pattern) continue;
      out.phrases.push({
        kind: ruleKind(rule),
        pattern,
        mask: maskOf(rule),
        redactLine: rule.redactLine === true,
        before: words(rule.redactBefore),
        after: words(rule.redactAfter),
      });
    }
  }
  for (const group of record.contentGroups ?? []) {
    if (!on(group)) continue;
    for (const item of group.contentItems ?? []) {
      if (!on(item) || !item.value?.trim() || !first(itemKey(item))) continue;
      const pattern = literalPattern(item.value);
      if (!pattern) continue;
      if (item.ignore === true) {
        out.ignore.push(pattern);
        continue;
      }
      if (!isRedactionItem(item)) continue;
      out.phrases.push({ kind: itemKind(item), pattern, mask: {}, redactLine: false, before: 0, after: 0 });
    }
  }
  return out;
}

export function isEmpty(rules: RecordRules | undefined): boolean {
  return !rules || (rules.phrases.length === 0 && rules.kinds.length === 0 && rules.ignore.length === 0);
}
