// The supervisor's dashboard: over the last 7 or 30 days, per day (or per agent, per campaign), the calls
// analysed, talk time per side, the caller's sentiment and the insights matched and violated — one request,
// GET /asr/insights/summary, counted by the database over every analysed call of the range (no call read one
// by one). Per day drawn with the daily chart (a table of the same figures under each); per agent or campaign,
// a table.
import { useEffect, useState } from 'preact/hooks';
import { getJson } from '../api';
import { type DayFigures, dailyFigures, type InsightSummary } from '../dailyFigures';
import { DailyChart } from './Chart';

const RANGES = [7, 30];
const GROUPINGS = ['day', 'agent', 'campaign'] as const;

function summary(days: number, project: string, groupBy: string): Promise<InsightSummary> {
  const q = new URLSearchParams({ groupBy, from: new Date(Date.now() - days * 86_400_000).toISOString() });
  if (project) q.set('sid', project);
  return getJson<InsightSummary>(`/asr/insights/summary?${q}`);
}

export function DashboardView() {
  const [days, setDays] = useState(7);
  const [groupBy, setGroupBy] = useState<(typeof GROUPINGS)[number]>('day');
  const [project, setProject] = useState('');
  const [draft, setDraft] = useState('');
  const [loaded, setLoaded] = useState<InsightSummary>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let cancelled = false;
    setLoaded(undefined);
    summary(days, project, groupBy).then(
      (l) => {
        if (cancelled) return;
        setLoaded(l);
        setError(undefined);
      },
      (e: Error) => !cancelled && setError(e.message),
    );
    return () => {
      cancelled = true;
    };
  }, [days, project, groupBy]);

  const figures = loaded ? dailyFigures(loaded) : [];
  const x = figures.map((f) => f.day);
  const series = (label: string, pick: (f: (typeof figures)[number]) => number) => ({ label, values: figures.map(pick) });
  return (
    <section aria-labelledby="dashboard-title">
      <h1 id="dashboard-title">Dashboard</h1>
      <form
        class="filters"
        aria-label="Dashboard range"
        onSubmit={(e) => {
          e.preventDefault();
          setProject(draft.trim());
        }}
      >
        <label for="dashboard-days">Days</label>
        <select id="dashboard-days" value={days} onChange={(e) => setDays(Number(e.currentTarget.value))}>
          {RANGES.map((n) => (
            <option value={n}>last {n}</option>
          ))}
        </select>
        <label for="dashboard-project">Project</label>
        <input id="dashboard-project" value={draft} size={12} onInput={(e) => setDraft(e.currentTarget.value)} />
        <label for="dashboard-groupBy">Per</label>
        <select id="dashboard-groupBy" value={groupBy} onChange={(e) => setGroupBy(e.currentTarget.value as (typeof GROUPINGS)[number])}>
          {GROUPINGS.map((g) => (
            <option value={g}>{g}</option>
          ))}
        </select>
        <button type="submit">Show</button>
      </form>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {!loaded && !error && <p role="status">Counting the calls…</p>}
      {loaded && (
        <p id="dashboard-count">
          {figures.reduce((n, f) => n + f.calls, 0)} analysed calls{loaded.truncated ? ' (more groups than shown)' : ''}.
        </p>
      )}
      {loaded && figures.length === 0 && <p>No analysed call in this range: submit calls with analytics or insights.</p>}
      {figures.length > 0 && groupBy !== 'day' && <GroupTable groupBy={groupBy} figures={figures} />}
      {figures.length > 0 && groupBy === 'day' && (
        <div class="charts">
          <DailyChart title="Analysed calls per day" days={x} series={[series('Calls', (f) => f.calls)]} />
          <DailyChart title="Talk time per day (minutes)" days={x} series={[series('Agent', (f) => f.agentMinutes), series('Caller', (f) => f.callerMinutes)]} />
          <DailyChart
            title="Caller sentiment per day (calls)"
            days={x}
            series={[series('Positive', (f) => f.positive), series('Neutral', (f) => f.neutral), series('Negative', (f) => f.negative)]}
          />
          <DailyChart title="Insights per day" days={x} series={[series('Matched', (f) => f.matches), series('Violations', (f) => f.violations)]} />
        </div>
      )}
    </section>
  );
}

function GroupTable({ groupBy, figures }: { groupBy: string; figures: DayFigures[] }) {
  return (
    <table class="jobs dashboard-groups" aria-label={`Figures per ${groupBy}`}>
      <thead>
        <tr>
          <th scope="col">{groupBy === 'agent' ? 'Agent' : 'Campaign'}</th>
          <th scope="col">Analysed calls</th>
          <th scope="col">Agent talk (min)</th>
          <th scope="col">Caller talk (min)</th>
          <th scope="col">Caller positive</th>
          <th scope="col">Caller neutral</th>
          <th scope="col">Caller negative</th>
          <th scope="col">Insights matched</th>
          <th scope="col">Violations</th>
        </tr>
      </thead>
      <tbody>
        {figures.map((f) => (
          <tr data-group={f.day}>
            <th scope="row">{f.day}</th>
            <td>{f.calls}</td>
            <td>{f.agentMinutes}</td>
            <td>{f.callerMinutes}</td>
            <td>{f.positive}</td>
            <td>{f.neutral}</td>
            <td>{f.negative}</td>
            <td>{f.matches}</td>
            <td>{f.violations}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
