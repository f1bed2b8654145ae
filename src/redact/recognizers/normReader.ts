// A reader of a doc's word norms by index ('' outside the doc), for the rules that look a few words around: made
// by a function rather than written as a named arrow in each rule, whose run (tsx keeps functions' names) names
// every closure it makes, a property defined on each, once per call of the rule.
import type { Doc } from './doc.js';

/** k -> the norm of word k of `doc`, '' outside it (or from `limit` on). */
export function normReader(doc: Doc, limit?: number): (k: number) => string {
  if (limit === undefined) return (k) => doc.words[k]?.norm ?? '';
  return (k) => (k < limit ? (doc.words[k]?.norm ?? '') : '');
}
