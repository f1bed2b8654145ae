// A call: its job's summary, the player on the redacted recording, the transcript by speaker and time with every
// redacted span highlighted by kind (hover: kind, mask rule, time; never the value), the downloads in every
// transcript shape, the notification deliveries, the job's events and, when the job has them, its analytics.
import { useEffect, useRef, useState } from 'preact/hooks';
import { download, getJson, type Session } from '../api';
import { seconds, TERMINAL, when } from '../format';
import { channelLabels, labelOf } from '../roles';
import { type RedactedSpan, turnsOf } from '../transcript';
import { type AnalysedUtterance, Analytics, type CallAnalytics, type InsightLine } from './Analytics';
import { Player, type PlayerHandle } from './Player';
import type { InsightRule } from './Violations';

const FORMATS = ['vendorA', 'vendorB', 'transcript', 'utterances', 'text', 'srt', 'vtt'] as const;
const EXTENSION: Record<string, string> = { text: 'txt', srt: 'srt', vtt: 'vtt' };

interface Job {
  jobId: string;
  status: string;
  fileName?: string;
  duration?: number;
  model?: string;
  redactionStatus?: string;
  createdAt?: string;
  completedAt?: string;
  message?: string;
  request?: Record<string, unknown>;
  transcript?: { results?: any[] };
  transcriptRedacted?: { results?: any[] };
  vendorATranscript?: { nchannels?: number; streamtags?: { agent_location?: string } };
  redaction?: {
    policy?: { kinds?: string[]; text?: boolean; audio?: boolean; sid?: string; version?: number };
    rules?: { kind: string; maskType: string }[];
    spans?: RedactedSpan[];
    windows?: { list?: { channel: number; start: number; end: number; kind?: string; source?: string }[] };
    audio?: { spans?: RedactedSpan[] };
  };
  analytics?: CallAnalytics;
  utterances?: AnalysedUtterance[];
  insightLines?: InsightLine[];
}

interface Delivery {
  deliveryId: string;
  url: string;
  status: string;
  attempts: number;
  maxAttempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  log: { attempt?: number; at?: string; statusCode?: number | null; error?: string | null; durationMs?: number }[];
}

interface EventItem {
  eventId: string;
  subType?: string;
  status?: string;
  message?: string;
  timestamp?: string;
}

export function CallView({ jobId }: { jobId: string; session: Session }) {
  const [job, setJob] = useState<Job>();
  const [error, setError] = useState<string>();
  const [deliveries, setDeliveries] = useState<Delivery[]>([]);
  const [events, setEvents] = useState<EventItem[]>([]);
  const [rules, setRules] = useState<InsightRule[]>([]);
  const player = useRef<PlayerHandle>();

  useEffect(() => {
    let timer: number | undefined;
    let cancelled = false;
    const load = async () => {
      try {
        const j = await getJson<Job>(`/asr/jobs/${encodeURIComponent(jobId)}`);
        if (cancelled) return;
        setJob(j);
        const [d, e] = await Promise.all([
          getJson<{ notifications: Delivery[] }>(`/asr/jobs/${encodeURIComponent(jobId)}/notifications`),
          getJson<{ events: EventItem[] }>(`/asr/jobs/${encodeURIComponent(jobId)}/events`),
        ]);
        if (cancelled) return;
        setDeliveries(d.notifications);
        setEvents(e.events);
        if (!TERMINAL.has(j.status)) timer = window.setTimeout(load, 2000);
      } catch (e) {
        if (!cancelled) setError((e as Error).message);
      }
    };
    void load();
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [jobId]);

  // The insight rules of the project version the job ran with: a violation is shown with its rule and place.
  const sid = (job?.request?.sid as string | undefined) ?? job?.redaction?.policy?.sid;
  const hasViolation = job?.analytics?.insights?.some((i) => i.type === 'compliance_violation') ?? false;
  useEffect(() => {
    if (!sid || !hasViolation) return;
    getJson<{ versions: { version: number; config: { insights?: InsightRule[] } }[] }>(`/system/projects/${encodeURIComponent(sid)}/versions`).then(
      (v) => setRules((v.versions.find((x) => x.version === job?.redaction?.policy?.version) ?? v.versions[0])?.config.insights ?? []),
      () => setRules([]),
    );
  }, [sid, hasViolation]);

  if (error) return <p class="error" role="alert">{error}</p>;
  if (!job) return <p role="status">Loading the call…</p>;

  const redaction = job.redaction;
  const maskOf = new Map((redaction?.rules ?? []).map((r) => [r.kind, r.maskType]));
  const sourceOf = (s: RedactedSpan) => redaction?.windows?.list?.find((w) => w.channel === s.channel && w.start <= s.start + 0.01 && w.end >= s.end - 0.01)?.source;
  const spans = redaction?.spans ?? [];
  const shape = job.transcriptRedacted ?? job.transcript;
  const turns = turnsOf(shape?.results, spans);
  const channels = Math.max(job.vendorATranscript?.nchannels ?? 1, ...turns.map((t) => t.channel + 1));
  const audioRedacted = redaction?.audio !== undefined;
  // Agent and Caller, from the transcript's speaker tags, wherever a stereo call's channels are named.
  const labels = channelLabels(shape?.results, channels, job.vendorATranscript?.streamtags?.agent_location ?? job.request?.agent_location);
  const id = encodeURIComponent(job.jobId);

  return (
    <article aria-labelledby="call-title" data-status={job.status}>
      <p>
        <a href="#/jobs">← Jobs</a>
      </p>
      <h1 id="call-title">{job.fileName ?? job.jobId}</h1>
      <dl class="summary">
        <dt>State</dt>
        <dd>
          <span class={`state state-${job.status}`}>{job.status}</span> {job.message}
        </dd>
        <dt>Duration</dt>
        <dd>{seconds(job.duration)}</dd>
        <dt>Model</dt>
        <dd>{job.model ?? '—'}</dd>
        <dt>Redaction</dt>
        <dd>
          {job.redactionStatus ?? 'none'}
          {redaction?.policy?.kinds?.length ? ` · ${redaction.policy.kinds.join(', ')}` : ''}
          {redaction?.policy?.audio ? ' · audio' : ''}
          {redaction?.policy?.sid ? ` · project ${redaction.policy.sid} version ${redaction.policy.version}` : ''}
        </dd>
        {typeof job.request?.callSid === 'string' && (
          <>
            <dt>Call id</dt>
            <dd>
              {/* A telephony call's live streams kept their finals under the same id. */}
              <a href={`#/streams?callSid=${encodeURIComponent(job.request.callSid)}`}>{job.request.callSid}</a>
            </dd>
          </>
        )}
        <dt>Created</dt>
        <dd>{when(job.createdAt)}</dd>
        <dt>Finished</dt>
        <dd>{when(job.completedAt)}</dd>
      </dl>

      {job.status === 'completed' && !audioRedacted && job.redactionStatus !== 'not_requested' && (
        <p class="note" id="recording-withheld">
          The recording was not redacted (only the transcript was: audio redaction was not asked for), so it is an original: the API serves it to
          admin keys only, and records each read.
        </p>
      )}

      {job.status === 'completed' && (audioRedacted || job.redactionStatus === 'not_requested') && (
        <Player
          src={`/asr/jobs/${id}/audio${audioRedacted ? '?redacted=true' : ''}`}
          channels={channels}
          laneLabels={Array.from({ length: channels }, (_, c) => labelOf(labels, c))}
          regions={redaction?.audio?.spans?.map((s) => ({ ...s, kind: spans.find((x) => x.channel === s.channel && x.start < s.end && x.end > s.start)?.kind ?? 'redacted' })) ?? []}
          handle={player}
          label={audioRedacted ? 'Redacted recording' : 'Recording (audio redaction was not asked for)'}
        />
      )}

      {job.status === 'completed' && (
        <section aria-labelledby="transcript-title" class="transcript">
          <h2 id="transcript-title">Transcript</h2>
          {turns.length === 0 && <p>No words were recognized.</p>}
          <ol class={`turns ${channels > 1 ? 'stereo' : ''}`}>
            {turns.map((turn) => (
              <li class={`turn lane-${turn.channel}`} data-channel={turn.channel}>
                <button type="button" class="stamp" onClick={() => player.current?.seekTo(turn.start)} aria-label={`Play from ${seconds(turn.start)}, ${channels > 1 ? labelOf(labels, turn.channel) : turn.speaker}`}>
                  {seconds(turn.start)}
                </button>
                <span class="speaker">{channels > 1 ? labelOf(labels, turn.channel) : turn.speaker}</span>
                <p>
                  {turn.words.map((w) =>
                    w.span ? (
                      <>
                        <mark
                          class={`redacted kind-${w.span.kind}`}
                          data-kind={w.span.kind}
                          title={`${w.span.kind} · ${maskOf.get(w.span.kind) ?? 'mask'}${sourceOf(w.span) && sourceOf(w.span) !== 'entity' ? ` (${sourceOf(w.span)} window)` : ''} · ${seconds(w.span.start)}–${seconds(w.span.end)}`}
                          onClick={() => player.current?.seekTo(w.start)}
                        >
                          {w.text}
                        </mark>{' '}
                      </>
                    ) : (
                      <>
                        <span class="word" onClick={() => player.current?.seekTo(w.start)}>
                          {w.text}
                        </span>{' '}
                      </>
                    ),
                  )}
                </p>
              </li>
            ))}
          </ol>
          {spans.length > 0 && (
            <p class="legend">
              Redacted: {[...new Set(spans.map((s) => s.kind))].map((k) => <mark class={`redacted kind-${k}`}>{k}</mark>)}
            </p>
          )}
        </section>
      )}

      {job.status === 'completed' && (
        <section aria-labelledby="downloads-title">
          <h2 id="downloads-title">Downloads</h2>
          <ul class="downloads">
            {FORMATS.map((f) => (
              <li>
                <button
                  type="button"
                  onClick={() => download(`/asr/jobs/${id}/transcript?format=${f}&download=true${redaction ? '&redacted=true' : ''}`, `${job.jobId}.${EXTENSION[f] ?? 'json'}`)}
                >
                  {f}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}

      <Analytics analytics={job.analytics} utterances={job.utterances} insightLines={job.insightLines} rules={rules} onSeek={(t) => player.current?.seekTo(t)} />

      <section aria-labelledby="deliveries-title">
        <h2 id="deliveries-title">Notifications</h2>
        {deliveries.length === 0 ? (
          <p>No notification was asked for.</p>
        ) : (
          deliveries.map((d) => (
            <details>
              <summary>
                {d.url} — {d.status}, {d.attempts} of {d.maxAttempts} attempts{d.lastStatusCode ? `, last ${d.lastStatusCode}` : ''}
              </summary>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Attempt</th>
                    <th scope="col">When</th>
                    <th scope="col">Status</th>
                    <th scope="col">Error</th>
                  </tr>
                </thead>
                <tbody>
                  {d.log.map((a, i) => (
                    <tr>
                      <td>{a.attempt ?? i + 1}</td>
                      <td>{when(a.at)}</td>
                      <td>{a.statusCode ?? '—'}</td>
                      <td>{a.error ?? ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          ))
        )}
      </section>

      <section aria-labelledby="events-title">
        <h2 id="events-title">Events</h2>
        <table class="events">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Event</th>
              <th scope="col">State</th>
              <th scope="col">Message</th>
            </tr>
          </thead>
          <tbody>
            {events.map((e) => (
              <tr>
                <td>{when(e.timestamp)}</td>
                <td>{e.subType}</td>
                <td>{e.status}</td>
                <td>{e.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </article>
  );
}
