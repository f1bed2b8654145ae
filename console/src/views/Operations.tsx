// Operations: engine and model status, the queue and the capacity to decode, and the daily figures of
// /asr/stats (jobs by state, audio hours, events) as charts. Refreshed every five seconds.
import { useEffect, useState } from 'preact/hooks';
import { getJson } from '../api';
import { DailyChart } from './Chart';

interface Status {
  status: string;
  problems?: { message?: string; detail?: string }[] | string[];
  version: string;
  uptimeSeconds: number;
  store?: { dialect?: string; reachable?: boolean };
  engine?: { ready?: boolean; models?: string[]; defaultModel?: { name?: string; installed?: boolean }; unavailable?: unknown[]; adaptation?: { state?: string; model?: string } };
  transcription?: { workers?: number; processes?: number; jobSlots?: number; queue?: Record<string, number> };
}
interface Capacity {
  streams: number;
  capacity: number;
  available: number;
  accepting: boolean;
  jobs?: { processing?: number; slots?: number };
}
interface Stats {
  days: { day: string; events: Record<string, number> }[];
  jobs: { day: string; status: string; jobs: number; audioSeconds: number }[];
}
interface Models {
  default?: string;
  models: { name: string; engine?: string; installed?: boolean; description?: string }[];
}

export function OperationsView() {
  const [status, setStatus] = useState<Status>();
  const [capacity, setCapacity] = useState<Capacity>();
  const [stats, setStats] = useState<Stats>();
  const [models, setModels] = useState<Models>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let timer: number;
    const load = () =>
      Promise.all([getJson<Status>('/asr/status'), getJson<Capacity>('/asr/maxstreamscheck'), getJson<Stats>('/asr/stats?days=30'), getJson<Models>('/asr/models')])
        .then(([s, c, st, m]) => {
          setStatus(s);
          setCapacity(c);
          setStats(st);
          setModels(m);
          setError(undefined);
        })
        .catch((e: Error) => setError(e.message))
        .finally(() => (timer = window.setTimeout(load, 5000)));
    void load();
    return () => clearTimeout(timer);
  }, []);

  const days = [...new Set((stats?.jobs ?? []).map((j) => j.day))].sort();
  const jobsBy = (state: string) => days.map((d) => stats!.jobs.filter((j) => j.day === d && j.status === state).reduce((n, j) => n + j.jobs, 0));
  const states = [...new Set((stats?.jobs ?? []).map((j) => j.status))].sort();
  const audioHours = days.map((d) => Number((stats!.jobs.filter((j) => j.day === d).reduce((n, j) => n + j.audioSeconds, 0) / 3600).toFixed(3)));
  const eventDays = (stats?.days ?? []).map((d) => d.day).sort();
  const eventTypes = [...new Set((stats?.days ?? []).flatMap((d) => Object.keys(d.events)))].filter((t) => /completed|failed|queued/.test(t)).sort();

  return (
    <section aria-labelledby="ops-title">
      <h1 id="ops-title">Operations</h1>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {status && (
        <div class="cards">
          <section class="card" aria-labelledby="engine-title">
            <h2 id="engine-title">Engine</h2>
            <dl class="summary">
              <dt>Service</dt>
              <dd data-status={status.status}>
                {status.status} (version {status.version}, up {Math.round(status.uptimeSeconds)} s)
              </dd>
              <dt>Store</dt>
              <dd>
                {status.store?.dialect} {status.store?.reachable ? 'reachable' : 'unreachable'}
              </dd>
              <dt>Engine</dt>
              <dd>{status.engine?.ready ? 'ready' : 'not ready'}</dd>
              <dt>Default model</dt>
              <dd>{status.engine?.defaultModel?.name}</dd>
              <dt>Telephone-band adaptation</dt>
              <dd>{status.engine?.adaptation?.state ?? '—'}</dd>
            </dl>
          </section>
          <section class="card" aria-labelledby="models-title">
            <h2 id="models-title">Models</h2>
            <ul>
              {models?.models.map((m) => (
                <li>
                  <strong>{m.name}</strong> ({m.engine}) {m.installed === false ? 'not installed' : 'installed'}
                  {m.name === models.default ? ' · default' : ''}
                </li>
              ))}
            </ul>
          </section>
          <section class="card" aria-labelledby="queue-title">
            <h2 id="queue-title">Queue and capacity</h2>
            <dl class="summary">
              {Object.entries(status.transcription?.queue ?? {}).map(([k, v]) => (
                <>
                  <dt>{k}</dt>
                  <dd>{v}</dd>
                </>
              ))}
              <dt>Decoding streams</dt>
              <dd>
                {capacity?.streams ?? 0} of {capacity?.capacity ?? 0} ({capacity?.available ?? 0} free{capacity?.accepting === false ? ', not accepting' : ''})
              </dd>
              <dt>Job slots</dt>
              <dd>
                {capacity?.jobs?.processing ?? 0} running of {capacity?.jobs?.slots ?? status.transcription?.jobSlots ?? 0} in {status.transcription?.processes ?? 0} process(es)
              </dd>
            </dl>
          </section>
        </div>
      )}
      {stats && days.length > 0 && (
        <div class="charts">
          <DailyChart title="Jobs per day by state" days={days} series={states.map((s) => ({ label: s, values: jobsBy(s) }))} />
          <DailyChart title="Audio hours per day" days={days} series={[{ label: 'hours', values: audioHours }]} />
          {eventTypes.length > 0 && (
            <DailyChart title="Job events per day" days={eventDays} series={eventTypes.map((t) => ({ label: t, values: eventDays.map((d) => stats.days.find((x) => x.day === d)?.events[t] ?? 0) }))} />
          )}
        </div>
      )}
      {stats && days.length === 0 && <p>No jobs in the last 30 days.</p>}
    </section>
  );
}
