// The figures a supervisor's dashboard draws per day (or per agent, per campaign), from GET /asr/insights/summary:
// the analysed calls, talk time per side (minutes), calls by the caller's sentiment (its `calls`), and the
// insights matched and violated over every insight (its `groups`). Days are UTC days (YYYY-MM-DD), as the
// service counts them. Pure.

export interface InsightSummary {
  groupBy: string;
  truncated: boolean;
  groups: { group: string | null; insights: { id: string; calls: number; matched: number; violations: number; lines: number }[] }[];
  calls: { group: string | null; calls: number; talkTimeAgent: number; talkTimeCaller: number; callerSentiment: { negative: number; neutral: number; positive: number } }[];
}

export interface DayFigures {
  /** The day, agent or campaign; '—' for calls that carry none. */
  day: string;
  calls: number;
  agentMinutes: number;
  callerMinutes: number;
  positive: number;
  neutral: number;
  negative: number;
  matches: number;
  violations: number;
}

const round = (n: number) => Math.round(n * 100) / 100;
const NONE = '—';

/** One row per group, in the summary's order (days ascending; the group of calls carrying none last). */
export function dailyFigures(summary: InsightSummary): DayFigures[] {
  const byGroup = new Map<string | null, DayFigures>();
  const row = (group: string | null) => {
    let f = byGroup.get(group);
    if (!f) byGroup.set(group, (f = { day: group ?? NONE, calls: 0, agentMinutes: 0, callerMinutes: 0, positive: 0, neutral: 0, negative: 0, matches: 0, violations: 0 }));
    return f;
  };
  for (const c of summary.calls) {
    const f = row(c.group);
    f.calls += c.calls;
    f.agentMinutes += c.talkTimeAgent / 60;
    f.callerMinutes += c.talkTimeCaller / 60;
    f.positive += c.callerSentiment.positive;
    f.neutral += c.callerSentiment.neutral;
    f.negative += c.callerSentiment.negative;
  }
  for (const g of summary.groups) {
    const f = row(g.group);
    for (const i of g.insights) {
      f.matches += i.matched;
      f.violations += i.violations;
    }
  }
  return [...byGroup.entries()]
    .sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b)))
    .map(([, f]) => ({ ...f, agentMinutes: round(f.agentMinutes), callerMinutes: round(f.callerMinutes) }));
}
