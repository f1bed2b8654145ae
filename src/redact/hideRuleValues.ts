// A record's own rules name the very values they hide (an account code, a codename, "my pin is"): kept as
// sent, the stored record would show in redactionTypes/contentGroups what its text no longer shows. So each
// literal value that an active record rule or content item redacts is replaced by its own mask. Regular
// expressions (shapes, not values), allow-list values (not sensitive by definition), analytics phrases (not
// redacted: see isRedactionItem), empty-value kind rules and inactive items (they did nothing) are not masked
// whole here; their values are content like any other field (see schemaWalk.ts).
import type { Masker } from './masks.js';
import { isRedactionItem, isRegexRule, itemKind, maskOf, on, ruleKind, type RecordInput } from './recordRules.js';
import { completeMask } from './spans.js';

/** Mutates `record` (a copy being redacted); answers the rules and items whose `value` it masked. */
export function hideRuleValues(record: RecordInput, masker: Masker): object[] {
  const masked: object[] = [];
  for (const group of record.redactionTypes ?? []) {
    if (!on(group)) continue;
    for (const rule of group.rules ?? []) {
      if (!on(rule) || !rule.value?.trim() || isRegexRule(rule)) continue;
      const kind = ruleKind(rule);
      (rule as { value?: string }).value = masker.mask(completeMask(kind, maskOf(rule)), rule.value);
      masked.push(rule);
    }
  }
  for (const group of record.contentGroups ?? []) {
    if (!on(group)) continue;
    for (const item of group.contentItems ?? []) {
      if (!on(item) || item.ignore === true || !item.value?.trim() || !isRedactionItem(item)) continue;
      (item as { value?: string }).value = masker.mask(completeMask(itemKind(item), {}), item.value);
      masked.push(item);
    }
  }
  return masked;
}
