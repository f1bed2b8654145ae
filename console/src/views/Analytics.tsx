// The analytics panel of a call, drawn when the job carries analytics (a job submitted with `analytics` or
// `insights`): the figures of `analytics` (resource 18: talk time per side, silence, over-talk), a timeline of
// who talked when with over-talk and silence drawn from the utterances' times, sentiment over the call (each
// utterance's polarity at its time), the figures per party (CallFigures.tsx: talk speed, interruptions, sentiment
// per quarter, loudness over time, non-talk, issues/outcomes/action items, summary), and the insight lines, each
// linked to its place in the recording.
import { seconds } from '../format';
import { CallFigures, type PartyAnalytics } from './CallFigures';
import { type AnalyticsInsight, type InsightRule, Violations } from './Violations';

interface SpeakerFigures {
  speaker: number;
  role?: string;
  talk_time?: number | null;
  utterances?: number;
  words_per_minute?: number | null;
  sentiment?: string;
}

export interface CallAnalytics extends Omit<PartyAnalytics, 'speakers'> {
  total_duration?: number | null;
  silence?: number | null;
  overtalk?: number | null;
  overtalk_count?: number | null;
  speaker_changes?: number | null;
  speakers?: SpeakerFigures[];
  insights?: AnalyticsInsight[];
}

export interface AnalysedUtterance {
  row?: number;
  speaker?: number;
  start?: number;
  end?: number;
  text?: string;
  sentiment?: number;
}

export interface InsightLine {
  insightId?: string;
  timestamp?: number;
  line?: number;
  speaker?: number;
  value?: string;
}

type Segment = { start: number; end: number; type: string };

/** Who talked when: each utterance on its side, and over-talk where two speakers' utterances overlap. */
export function timelineOf(utterances: AnalysedUtterance[], roleOf: (speaker: number | undefined) => string): Segment[] {
  const timed = utterances.filter((u) => typeof u.start === 'number' && typeof u.end === 'number' && u.end! > u.start!);
  const talk = timed.map((u) => ({ start: u.start!, end: u.end!, type: roleOf(u.speaker) }));
  const overtalk: Segment[] = [];
  for (let i = 0; i < timed.length; i++) {
    for (let j = i + 1; j < timed.length; j++) {
      if (timed[i].speaker === timed[j].speaker) continue;
      const start = Math.max(timed[i].start!, timed[j].start!);
      const end = Math.min(timed[i].end!, timed[j].end!);
      if (end > start) overtalk.push({ start, end, type: 'overtalk' });
    }
  }
  return [...talk, ...overtalk];
}

const POLARITY: Record<number, string> = { [-1]: 'negative', 0: 'neutral', 1: 'positive' };

export function Analytics({
  analytics,
  utterances,
  insightLines,
  rules = [],
  onSeek,
}: {
  analytics: CallAnalytics | undefined;
  utterances: AnalysedUtterance[] | undefined;
  insightLines: InsightLine[] | undefined;
  /** The insight rules of the project version the job ran with (for the violations' rule and place). */
  rules?: InsightRule[];
  onSeek: (t: number) => void;
}) {
  if (!analytics || typeof analytics !== 'object') return null;
  const lines = utterances ?? [];
  const speakers = analytics.speakers ?? [];
  const roleOf = (speaker: number | undefined) => speakers.find((s) => s.speaker === speaker)?.role ?? `speaker${speaker ?? 0}`;
  // What a supervisor reads: Agent and Caller (speaker 0 is the agent on a stereo call), else Speaker N.
  const sideOf = (speaker: number | undefined) => {
    const role = speakers.find((s) => s.speaker === speaker)?.role;
    return role ? role.charAt(0).toUpperCase() + role.slice(1) : `Speaker ${(speaker ?? 0) + 1}`;
  };
  const duration = analytics.total_duration ?? Math.max(0, ...lines.map((u) => u.end ?? 0));
  const pct = (x: number | null | undefined) => (duration > 0 && typeof x === 'number' ? `${((100 * x) / duration).toFixed(1)}%` : '—');
  const at = (t: number) => `${(100 * t) / duration}%`;
  const names = new Map((analytics.insights ?? []).map((i) => [i.id, i.name ?? i.id]));
  const withSentiment = lines.filter((u) => typeof u.sentiment === 'number' && typeof u.start === 'number');
  return (
    <section aria-labelledby="analytics-title" class="analytics">
      <h2 id="analytics-title">Analytics</h2>
      <dl class="summary">
        <dt>Duration</dt>
        <dd data-figure="duration">{seconds(duration)}</dd>
        {speakers.map((s) => (
          <>
            <dt>Talk time, {sideOf(s.speaker)}</dt>
            <dd data-figure={`talk-${s.role ?? s.speaker}`}>
              {seconds(s.talk_time ?? undefined)} ({pct(s.talk_time)}){s.sentiment ? `, sentiment ${s.sentiment}` : ''}
            </dd>
          </>
        ))}
        <dt>Silence</dt>
        <dd data-figure="silence">
          {seconds(analytics.silence ?? undefined)} ({pct(analytics.silence)})
        </dd>
        <dt>Over-talk</dt>
        <dd data-figure="overtalk">
          {analytics.overtalk_count ?? 0} times, {seconds(analytics.overtalk ?? undefined)}
        </dd>
      </dl>
      {duration > 0 && lines.length > 0 && (
        <div class="timeline" role="img" aria-label="Who talked when: each side, over-talk; the gaps are silence">
          {timelineOf(lines, roleOf).map((t) => (
            <span class={`seg seg-${t.type}`} data-type={t.type} title={`${t.type} ${seconds(t.start)}–${seconds(t.end)}`} style={{ left: at(t.start), width: at(t.end - t.start) }} />
          ))}
        </div>
      )}
      {duration > 0 && lines.length > 0 && (
        <p class="legend">
          {[...new Set(speakers.map((s) => s.role ?? `speaker${s.speaker}`))].map((role) => (
            <span class={`key seg-${role}`}>{role.charAt(0).toUpperCase() + role.slice(1)}</span>
          ))}
          <span class="key seg-overtalk">over-talk</span> <span class="key">silence</span> · sentiment: <span class="key pol-positive">positive</span>
          <span class="key pol-neutral">neutral</span> <span class="key pol-negative">negative</span>
        </p>
      )}
      {duration > 0 && withSentiment.length > 0 && (
        <div class="sentiment-track" role="img" aria-label="Sentiment over the call, one mark per utterance">
          {withSentiment.map((u) => (
            <span
              class={`pol pol-${POLARITY[u.sentiment!] ?? 'neutral'}`}
              data-polarity={POLARITY[u.sentiment!] ?? 'neutral'}
              title={`${seconds(u.start)} ${sideOf(u.speaker)}: ${POLARITY[u.sentiment!] ?? 'neutral'}`}
              style={{ left: at(u.start!), width: at(Math.max(0.2, (u.end ?? u.start!) - u.start!)) }}
            />
          ))}
        </div>
      )}
      <CallFigures analytics={analytics as PartyAnalytics} sideOf={sideOf} onSeek={onSeek} />
      <Violations insights={analytics.insights} rules={rules} duration={duration} sideOf={sideOf} onSeek={onSeek} />
      {(insightLines ?? []).length > 0 && (
        <ul class="insights" aria-label="Insight lines">
          {insightLines!.map((l) => (
            <li data-insight={l.insightId}>
              {typeof l.timestamp === 'number' ? (
                <button type="button" class="link" onClick={() => onSeek(l.timestamp!)}>
                  {seconds(l.timestamp)}
                </button>
              ) : null}{' '}
              <strong>{names.get(l.insightId) ?? l.insightId}</strong>
              {typeof l.speaker === 'number' && <span class="side"> ({sideOf(l.speaker)})</span>} {l.value ?? ''}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
