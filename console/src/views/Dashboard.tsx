// The supervisor's dashboard: per day over the last 7 or 30 days, the calls analysed, talk time per side, the
// caller's sentiment and the insights matched and violated, drawn with the daily chart (a table of the same
// figures under each). The figures are the calls' own analytics (job records), read for the most recent
// analysed calls of the range (at most MAX_CALLS; the view says when there were more).
import { useEffect, useState } from 'preact/hooks';
import { getJson } from '../api';
import { type AnalysedCall, dailyFigures } from '../dailyFigures';
import { DailyChart } from './Chart';

/** The most job records one dashboard reads (each is a request of its own). */
const MAX_CALLS = 200;
/** Job records read at once. */
const PARALLEL = 6;
const RANGES = [7, 30];

async function analysedCalls(days: number, project: string): Promise<{ calls: AnalysedCall[]; total: number }> {
  const q = new URLSearchParams({ status: 'completed', limit: String(MAX_CALLS), from: new Date(Date.now() - days * 86_400_000).toISOString() });
  if (project) q.set('sid', project);
  const page = await getJson<{ total: number; jobs: { jobId: string }[] }>(`/asr/jobs?${q}`);
  const calls: AnalysedCall[] = [];
  for (let i = 0; i < page.jobs.length; i += PARALLEL) {
    const batch = page.jobs.slice(i, i + PARALLEL);
    calls.push(...(await Promise.all(batch.map((j) => getJson<AnalysedCall>(`/asr/jobs/${encodeURIComponent(j.jobId)}`)))));
  }
  return { calls, total: page.total };
}

export function DashboardView() {
  const [days, setDays] = useState(7);
  const [project, setProject] = useState('');
  const [draft, setDraft] = useState('');
  const [loaded, setLoaded] = useState<{ calls: AnalysedCall[]; total: number }>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let cancelled = false;
    setLoaded(undefined);
    analysedCalls(days, project).then(
      (l) => !cancelled && setLoaded(l),
      (e: Error) => !cancelled && setError(e.message),
    );
    return () => {
      cancelled = true;
    };
  }, [days, project]);

  const figures = loaded ? dailyFigures(loaded.calls) : [];
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
        <button type="submit">Show</button>
      </form>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {!loaded && !error && <p role="status">Reading the calls…</p>}
      {loaded && (
        <p id="dashboard-count">
          {figures.reduce((n, f) => n + f.calls, 0)} analysed calls of {loaded.total} completed
          {loaded.total > MAX_CALLS ? ` (the ${MAX_CALLS} most recent read)` : ''}.
        </p>
      )}
      {loaded && figures.length === 0 && <p>No analysed call in this range: submit calls with analytics or insights.</p>}
      {figures.length > 0 && (
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
