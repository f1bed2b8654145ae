// The extractive summary of a call (issue 35): sentences of the (redacted) transcript itself, never written
// anew: the issue, the outcome and the action items (detect.ts), chosen and ranked. A sentence scores by what it
// says (issue or outcome 3, action item 2) plus 1 when the party who normally says it did (issue: the caller;
// outcome, action item: the agent; no roles on a mono call, no bonus). Chosen: the best issue (earliest on a
// tie: why they called), the best outcome (latest on a tie: how it ended), the two best action items (earliest).
// Listed in call order, each with its rank (1 the highest score). Pure.
import type { Detection } from './detect.js';
import type { OutcomeKind } from './lexicon.js';

export interface SummarySentence {
  kind: OutcomeKind;
  rank: number;
  score: number;
  line: number;
  speaker: number;
  start: number;
  text: string;
}

export interface CallSummary {
  /** The chosen sentences joined, in call order; '' when nothing was detected. */
  text: string;
  sentences: SummarySentence[];
}

const BASE: Record<OutcomeKind, number> = { issue: 3, outcome: 3, action: 2 };
const USUAL_ROLE: Record<OutcomeKind, 'agent' | 'caller'> = { issue: 'caller', outcome: 'agent', action: 'agent' };
const KIND_ORDER: Record<OutcomeKind, number> = { issue: 0, outcome: 1, action: 2 };
export const SUMMARY_ACTIONS = 2;

const scoreOf = (d: Detection) => BASE[d.kind] + (d.role === USUAL_ROLE[d.kind] ? 1 : 0);
const inCallOrder = (a: Detection, b: Detection) => a.line - b.line || a.sentence - b.sentence;

export function callSummary(detections: readonly Detection[]): CallSummary {
  const of = (kind: OutcomeKind) => detections.filter((d) => d.kind === kind).sort(inCallOrder);
  const best = (list: Detection[], latest: boolean) =>
    list.reduce<Detection | undefined>((top, d) => (!top || scoreOf(d) > scoreOf(top) || (latest && scoreOf(d) === scoreOf(top)) ? d : top), undefined);
  const actions = of('action')
    .map((d, i) => ({ d, i }))
    .sort((a, b) => scoreOf(b.d) - scoreOf(a.d) || a.i - b.i)
    .slice(0, SUMMARY_ACTIONS)
    .map((x) => x.d);
  const chosen: Detection[] = [];
  // One sentence is said once, even when it holds the issue and the outcome.
  for (const d of [best(of('issue'), false), best(of('outcome'), true), ...actions]) {
    if (d && !chosen.some((c) => c.line === d.line && c.sentence === d.sentence)) chosen.push(d);
  }
  const ranked = [...chosen].sort((a, b) => scoreOf(b) - scoreOf(a) || KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || inCallOrder(a, b));
  const sentences = chosen.sort(inCallOrder).map((d) => ({
    kind: d.kind,
    rank: ranked.indexOf(d) + 1,
    score: scoreOf(d),
    line: d.line,
    speaker: d.speaker,
    start: d.start,
    text: d.text,
  }));
  return { text: sentences.map((s) => s.text).join(' '), sentences };
}
