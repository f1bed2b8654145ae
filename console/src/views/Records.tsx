// Post-call records (conversation event records posted to /system/cache/post-call): a list, newest first, and a
// record's view: its state, agent and campaign, the transcript as the service stored it (redacted by the record's
// project: the API never keeps the values it masked) by Agent and Caller, and its analytics panel (figures,
// timeline, sentiment, violations and insight lines, which here move to their line: a record has no recording).
import { useEffect, useState } from 'preact/hooks';
import { getJson } from '../api';
import { seconds, when } from '../format';
import { type AnalysedUtterance, Analytics, type CallAnalytics, type InsightLine } from './Analytics';
import type { InsightRule } from './Violations';

interface Entry {
  key: string;
  updatedAt: string;
  size: number;
}

interface PostCallRecord {
  eventId: string;
  status?: string;
  agentId?: string;
  campaign?: string | { [key: string]: unknown };
  direction?: string;
  conversation?: { agentId?: string; campaignId?: string; direction?: string };
  analytics?: CallAnalytics;
  utterances?: (AnalysedUtterance & { channel?: number })[];
  insightLines?: InsightLine[];
  insights?: InsightRule[];
}

const PAGE = 50;
const ENTRY_PREFIX = 'conversation:';

export function RecordsView({ eventId }: { eventId?: string }) {
  return eventId ? <RecordView eventId={eventId} /> : <RecordList />;
}

function RecordList() {
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<{ total: number; entries: Entry[] }>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    getJson<{ total: number; entries: Entry[] }>(`/cache/list?kind=conversation&limit=${PAGE}&offset=${offset}`).then(setPage, (e: Error) => setError(e.message));
  }, [offset]);
  return (
    <section aria-labelledby="records-title">
      <h1 id="records-title">Post-call records</h1>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {page && page.total === 0 && <p>No post-call record has been posted yet.</p>}
      {page && page.total > 0 && (
        <>
          <table class="jobs records" aria-describedby="records-count">
            <thead>
              <tr>
                <th scope="col">Record</th>
                <th scope="col">Last change</th>
              </tr>
            </thead>
            <tbody>
              {page.entries.map((e) => {
                const id = e.key.startsWith(ENTRY_PREFIX) ? e.key.slice(ENTRY_PREFIX.length) : e.key;
                return (
                  <tr data-record={id}>
                    <td>
                      <a href={`#/records/${encodeURIComponent(id)}`}>{id}</a>
                    </td>
                    <td>{when(e.updatedAt)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <nav class="pager" aria-label="Pages of records">
            <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
              Newer
            </button>
            <span id="records-count">{`${offset + 1}–${Math.min(offset + PAGE, page.total)} of ${page.total}`}</span>
            <button type="button" disabled={offset + PAGE >= page.total} onClick={() => setOffset(offset + PAGE)}>
              Older
            </button>
          </nav>
        </>
      )}
    </section>
  );
}

/** Agent and Caller by the record's speaker integers (0 is the agent on a two-party call). */
const sideOf = (speaker: number | undefined, parties: number) => (parties < 2 ? 'Speaker' : speaker === 0 ? 'Agent' : speaker === 1 ? 'Caller' : `Caller ${speaker ?? 1}`);

function RecordView({ eventId }: { eventId: string }) {
  const [record, setRecord] = useState<PostCallRecord>();
  const [error, setError] = useState<string>();
  const [current, setCurrent] = useState<number>();
  useEffect(() => {
    getJson<PostCallRecord>(`/system/cache/post-call/${encodeURIComponent(eventId)}`).then(setRecord, (e: Error) => setError(e.message));
  }, [eventId]);
  if (error) return <p class="error" role="alert">{error}</p>;
  if (!record) return <p role="status">Loading the record…</p>;

  const lines = record.utterances ?? [];
  const parties = new Set(lines.map((u) => u.speaker ?? 0)).size;
  // The record's own conversation names agent and campaign (what search filters by); older shapes carry them at the top.
  const agent = record.conversation?.agentId ?? record.agentId;
  const campaign = record.conversation?.campaignId ?? (typeof record.campaign === 'string' ? record.campaign : undefined);
  const direction = record.conversation?.direction ?? record.direction;
  // No recording to seek: a time moves to the line said then.
  const seek = (t: number) => {
    const row = lines.findIndex((u) => (u.start ?? 0) <= t + 0.01 && (u.end ?? 0) >= t - 0.01);
    setCurrent(row >= 0 ? row : undefined);
    if (row >= 0) document.getElementById(`line-${row}`)?.scrollIntoView({ block: 'center' });
  };
  return (
    <article aria-labelledby="record-title" data-status={record.status}>
      <p>
        <a href="#/records">← Post-call records</a>
      </p>
      <h1 id="record-title">{record.eventId}</h1>
      <dl class="summary">
        <dt>State</dt>
        <dd>{record.status ?? '—'}</dd>
        <dt>Agent</dt>
        <dd>{agent ?? '—'}</dd>
        <dt>Campaign</dt>
        <dd>{campaign ?? '—'}</dd>
        <dt>Direction</dt>
        <dd>{direction ?? '—'}</dd>
      </dl>
      <section aria-labelledby="transcript-title" class="transcript">
        <h2 id="transcript-title">Transcript</h2>
        {lines.length === 0 && <p>The record holds no utterance.</p>}
        <ol class={`turns ${parties > 1 ? 'stereo' : ''}`}>
          {lines.map((u, i) => (
            <li id={`line-${i}`} class={`turn lane-${u.speaker === 0 ? 0 : 1} ${current === i ? 'current' : ''}`} data-speaker={u.speaker} aria-current={current === i ? 'true' : undefined}>
              <span class="stamp">{seconds(u.start)}</span>
              <span class="speaker">{sideOf(u.speaker, parties)}</span>
              <p>{u.text}</p>
            </li>
          ))}
        </ol>
      </section>
      <Analytics analytics={record.analytics} utterances={lines} insightLines={record.insightLines} rules={record.insights ?? []} onSeek={seek} />
    </article>
  );
}
