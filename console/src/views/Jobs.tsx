// The jobs view: a page of jobs with their file, state, duration, model, redaction state and times, refreshed
// while any of them is still running; filters (state, project, call, dates, tracking id) and paging; a search by
// words of the redacted transcripts (GET /asr/search, with project, agent, campaign, category, violation, the
// call's and the caller's sentiment and dates; filters alone list the calls they find), which lists the calls
// found instead of the page of jobs; and, for keys that may submit, the upload of recordings.
import { useEffect, useRef, useState } from 'preact/hooks';
import { can, getJson, type Session } from '../api';
import { seconds, TERMINAL, when } from '../format';
import { type SearchHit, SearchResults } from './SearchResults';
import { Upload } from './Upload';

export interface JobBrief {
  jobId: string;
  fileName?: string;
  status: string;
  duration?: number;
  model?: string;
  redactionStatus?: string;
  createdAt?: string;
  completedAt?: string;
  sid?: string;
}

interface Filters {
  q: string;
  status: string;
  sid: string;
  callSid: string;
  tracking_id: string;
  agent: string;
  campaign: string;
  category: string;
  violation: string;
  sentiment: string;
  callerSentiment: string;
  from: string;
  to: string;
}

/** The filters only the search has: any of them (or words) lists calls found instead of the page of jobs. */
const SEARCH_ONLY = ['q', 'agent', 'campaign', 'category', 'violation', 'sentiment', 'callerSentiment'] as const;
const POLARITIES = ['negative', 'neutral', 'positive'];

const PAGE_SIZES = [50, 100, 500];
const EMPTY: Filters = { q: '', status: '', sid: '', callSid: '', tracking_id: '', agent: '', campaign: '', category: '', violation: '', sentiment: '', callerSentiment: '', from: '', to: '' };
/** The most calls a search answers at once (the API's own limit). */
const SEARCH_LIMIT = 100;

function dates(filters: Filters, q: URLSearchParams): void {
  // Dates are the user's local days: from the start of `from` to the end of `to`.
  if (filters.from) q.set('from', new Date(`${filters.from}T00:00:00`).toISOString());
  if (filters.to) q.set('to', new Date(new Date(`${filters.to}T00:00:00`).getTime() + 86_400_000).toISOString());
}

function query(filters: Filters, offset: number, size: number): string {
  const q = new URLSearchParams({ limit: String(size), offset: String(offset) });
  if (filters.status) q.set('status', filters.status);
  if (filters.sid.trim()) q.set('sid', filters.sid.trim());
  if (filters.callSid.trim()) q.set('callSid', filters.callSid.trim());
  if (filters.tracking_id.trim()) q.set('tracking_id', filters.tracking_id.trim());
  dates(filters, q);
  return `/asr/jobs?${q}`;
}

/** The search the filters ask for: the words, with the filters the search has (state and tracking id it has not). */
function searchQuery(filters: Filters, offset: number): string {
  const q = new URLSearchParams({ limit: String(SEARCH_LIMIT), offset: String(offset) });
  for (const name of ['q', 'sid', ...SEARCH_ONLY] as const) if (filters[name].trim()) q.set(name, filters[name].trim());
  dates(filters, q);
  return `/asr/search?${q}`;
}

let firstRenderMarked = false;

export function JobsView({ session }: { session: Session }) {
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [offset, setOffset] = useState(0);
  // The page size: the address may ask (#/jobs?size=500), else 50.
  const asked = Number(new URLSearchParams(location.hash.split('?')[1] ?? '').get('size'));
  const [size, setSize] = useState(PAGE_SIZES.includes(asked) ? asked : 50);
  const [page, setPage] = useState<{ total: number; jobs: JobBrief[] }>();
  const [found, setFound] = useState<{ words: string; offset: number; hits: SearchHit[] }>();
  const searchAsked = (f: Filters) => SEARCH_ONLY.some((name) => f[name].trim() !== '');
  const [error, setError] = useState<string>();
  const [tick, setTick] = useState(0);
  const timer = useRef<number>();

  useEffect(() => {
    let cancelled = false;
    getJson<{ total: number; jobs: JobBrief[] }>(query(filters, offset, size))
      .then((p) => {
        if (cancelled) return;
        setPage(p);
        setError(undefined);
        // Live: while a job of the page runs, look again in two seconds (ten otherwise).
        const running = p.jobs.some((j) => !TERMINAL.has(j.status));
        clearTimeout(timer.current);
        timer.current = window.setTimeout(() => setTick((t) => t + 1), running ? 2000 : 10_000);
      })
      .catch((e: Error) => !cancelled && setError(e.message));
    return () => {
      cancelled = true;
    };
  }, [filters, offset, tick, size]);
  useEffect(() => () => clearTimeout(timer.current), []);

  // Words given: the calls whose redacted transcript holds them, in place of the page of jobs.
  const searching = searchAsked(filters);
  useEffect(() => {
    if (!searching) return setFound(undefined);
    let cancelled = false;
    getJson<{ results: SearchHit[] }>(searchQuery(filters, offset)).then(
      (r) => {
        if (cancelled) return;
        setFound({ words: filters.q.trim(), offset, hits: r.results });
        setError(undefined);
      },
      (e: Error) => !cancelled && setError(e.message),
    );
    return () => {
      cancelled = true;
    };
  }, [filters, offset, searching]);

  useEffect(() => {
    // Time to first render of the list (bench/console.ts reads it).
    if (page && !firstRenderMarked) {
      firstRenderMarked = true;
      performance.mark('scrubline:jobs-rendered');
      document.body.dataset.jobsRendered = String(performance.now());
    }
  }, [page]);

  const field = (name: keyof Filters) => ({
    id: `filter-${name}`,
    value: draft[name],
    onInput: (e: Event) => setDraft({ ...draft, [name]: (e.currentTarget as HTMLInputElement).value }),
  });

  return (
    <section aria-labelledby="jobs-title">
      <h1 id="jobs-title">Jobs</h1>
      {can(session.scope, 'submit') && <Upload onSubmitted={() => setTick((t) => t + 1)} />}
      <form
        class="filters"
        aria-label="Filter jobs"
        onSubmit={(e) => {
          e.preventDefault();
          setOffset(0);
          setFilters(draft);
        }}
      >
        <label for="filter-q">Words</label>
        <input type="search" {...field('q')} size={18} placeholder="in the redacted transcripts" />
        <label for="filter-status">State</label>
        <select {...field('status')}>
          <option value="">any</option>
          {['queued', 'processing', 'completed', 'failed', 'cancelled'].map((s) => (
            <option value={s}>{s}</option>
          ))}
        </select>
        <label for="filter-sid">Project</label>
        <input {...field('sid')} size={12} />
        <label for="filter-callSid">Call id</label>
        <input {...field('callSid')} size={12} />
        <label for="filter-tracking_id">Tracking id</label>
        <input {...field('tracking_id')} size={12} />
        <label for="filter-agent">Agent</label>
        <input {...field('agent')} size={10} />
        <label for="filter-campaign">Campaign</label>
        <input {...field('campaign')} size={10} />
        <label for="filter-category">Category</label>
        <input {...field('category')} size={10} placeholder="insight id" />
        <label for="filter-violation">Violation</label>
        <input {...field('violation')} size={10} placeholder="insight id" />
        <label for="filter-sentiment">Call sentiment</label>
        <select {...field('sentiment')}>
          <option value="">any</option>
          {POLARITIES.map((p) => (
            <option value={p}>{p}</option>
          ))}
        </select>
        <label for="filter-callerSentiment">Caller sentiment</label>
        <select {...field('callerSentiment')}>
          <option value="">any</option>
          {POLARITIES.map((p) => (
            <option value={p}>{p}</option>
          ))}
        </select>
        <label for="filter-from">From</label>
        <input type="date" {...field('from')} />
        <label for="filter-to">To</label>
        <input type="date" {...field('to')} />
        <button type="submit" id="filter-apply">
          {searchAsked(draft) ? 'Search' : 'Filter'}
        </button>
        {searchAsked(draft) && (
          <p class="hint" id="filter-hint">
            Words, agent, campaign, category, violation and sentiment search the redacted calls (jobs and post-call records); category, violation and sentiment find analysed calls only.
          </p>
        )}
      </form>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {searching && found && (
        <>
          <SearchResults words={found.words} hits={found.hits} />
          <nav class="pager" aria-label="Pages of calls found">
            <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - SEARCH_LIMIT))}>
              Newer
            </button>
            <span id="search-count">
              {found.words
                ? found.hits.length === 0
                  ? `No call holds “${found.words}”`
                  : `${found.offset + 1}–${found.offset + found.hits.length} found for “${found.words}”`
                : found.hits.length === 0
                  ? 'No call matches the filters'
                  : `${found.offset + 1}–${found.offset + found.hits.length} found by the filters`}
            </span>
            <button type="button" disabled={found.hits.length < SEARCH_LIMIT} onClick={() => setOffset(offset + SEARCH_LIMIT)}>
              Older
            </button>
          </nav>
        </>
      )}
      {!searching && page && (
        <>
          <table class="jobs" aria-describedby="jobs-count">
            <thead>
              <tr>
                <th scope="col">File</th>
                <th scope="col">State</th>
                <th scope="col">Duration</th>
                <th scope="col">Model</th>
                <th scope="col">Redaction</th>
                <th scope="col">Created</th>
                <th scope="col">Finished</th>
              </tr>
            </thead>
            <tbody>
              {page.jobs.map((job) => (
                <tr key={job.jobId} data-job={job.jobId} data-status={job.status}>
                  <td>
                    <a href={`#/jobs/${encodeURIComponent(job.jobId)}`}>{job.fileName || job.jobId}</a>
                  </td>
                  <td>
                    <span class={`state state-${job.status}`}>{job.status}</span>
                  </td>
                  <td>{seconds(job.duration)}</td>
                  <td>{job.model ?? '—'}</td>
                  <td>{job.redactionStatus ?? '—'}</td>
                  <td>{when(job.createdAt)}</td>
                  <td>{when(job.completedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav class="pager" aria-label="Pages of jobs">
            <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - size))}>
              Newer
            </button>
            <span id="jobs-count">
              {page.total === 0 ? 'No jobs' : `${offset + 1}–${Math.min(offset + size, page.total)} of ${page.total}`}
            </span>
            <button type="button" disabled={offset + size >= page.total} onClick={() => setOffset(offset + size)}>
              Older
            </button>
            <label for="page-size">Per page</label>
            <select
              id="page-size"
              value={size}
              onChange={(e) => {
                setOffset(0);
                setSize(Number(e.currentTarget.value));
              }}
            >
              {PAGE_SIZES.map((n) => (
                <option value={n}>{n}</option>
              ))}
            </select>
          </nav>
        </>
      )}
    </section>
  );
}
