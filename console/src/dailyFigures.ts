// The figures a supervisor's dashboard draws per day, from the analysed calls' own analytics (the job record's
// `analytics`, resource 18): calls analysed, talk time per side, the caller's sentiment, insights matched and
// compliance violations. Days are UTC days (YYYY-MM-DD), as the service's daily statistics count them. Pure.

export interface AnalysedCall {
  createdAt?: string;
  analytics?: {
    talk_time_agent?: number | null;
    talk_time_caller?: number | null;
    sentiment_caller?: string;
    insights?: { type?: string }[];
  };
}

export interface DayFigures {
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

const minutes = (s: number | null | undefined) => (typeof s === 'number' && Number.isFinite(s) ? s / 60 : 0);
const round = (n: number) => Math.round(n * 100) / 100;

/** The days of the calls that carry analytics, oldest first; a call without analytics is not counted. */
export function dailyFigures(calls: readonly AnalysedCall[]): DayFigures[] {
  const byDay = new Map<string, DayFigures>();
  for (const call of calls) {
    if (!call.analytics || !call.createdAt) continue;
    const day = call.createdAt.slice(0, 10);
    const f = byDay.get(day) ?? { day, calls: 0, agentMinutes: 0, callerMinutes: 0, positive: 0, neutral: 0, negative: 0, matches: 0, violations: 0 };
    const a = call.analytics;
    f.calls++;
    f.agentMinutes += minutes(a.talk_time_agent);
    f.callerMinutes += minutes(a.talk_time_caller);
    if (a.sentiment_caller === 'positive' || a.sentiment_caller === 'neutral' || a.sentiment_caller === 'negative') f[a.sentiment_caller]++;
    for (const i of a.insights ?? []) {
      if (i.type === 'match') f.matches++;
      else if (i.type === 'compliance_violation') f.violations++;
    }
    byDay.set(day, f);
  }
  return [...byDay.values()].sort((x, y) => x.day.localeCompare(y.day)).map((f) => ({ ...f, agentMinutes: round(f.agentMinutes), callerMinutes: round(f.callerMinutes) }));
}
