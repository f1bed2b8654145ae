// The analytics panel of a call, drawn only when the job carries analytics or insights (issue 18 adds them):
// talk time per speaker, silence and over-talk, sentiment per utterance, and insight lines that seek the audio.
import { seconds } from '../format';

interface Figures {
  duration?: number;
  silence?: number;
  overtalk?: { count?: number; total?: number };
  speakers?: { speaker: number; role?: string; talkTime?: number; sentiment?: { polarity?: string } }[];
  utteranceSentiment?: { line: number; polarity: string; score: number }[];
  timeline?: { start: number; end: number; type: string; speaker?: number }[];
}

interface InsightLine {
  text?: string;
  name?: string;
  line?: number;
  start?: number;
}

export function Analytics({ analytics, insights, onSeek }: { analytics: unknown; insights: unknown; onSeek: (t: number) => void }) {
  const figures = (analytics && typeof analytics === 'object' ? analytics : undefined) as Figures | undefined;
  const lines = (Array.isArray(insights) ? insights : Array.isArray((insights as { items?: unknown[] })?.items) ? (insights as { items: unknown[] }).items : []) as InsightLine[];
  if (!figures && lines.length === 0) return null;
  const duration = figures?.duration ?? 0;
  const pct = (x: number | undefined) => (duration > 0 && x !== undefined ? `${((100 * x) / duration).toFixed(1)}%` : '—');
  return (
    <section aria-labelledby="analytics-title" class="analytics">
      <h2 id="analytics-title">Analytics</h2>
      {figures && (
        <>
          <dl class="summary">
            {(figures.speakers ?? []).map((s) => (
              <>
                <dt>Talk time, {s.role ?? `speaker ${s.speaker + 1}`}</dt>
                <dd>
                  {seconds(s.talkTime)} ({pct(s.talkTime)}){s.sentiment?.polarity ? `, sentiment ${s.sentiment.polarity}` : ''}
                </dd>
              </>
            ))}
            <dt>Silence</dt>
            <dd>
              {seconds(figures.silence)} ({pct(figures.silence)})
            </dd>
            <dt>Over-talk</dt>
            <dd>
              {figures.overtalk?.count ?? 0} times, {seconds(figures.overtalk?.total)}
            </dd>
          </dl>
          {duration > 0 && figures.timeline && (
            <div class="timeline" role="img" aria-label="Talk, silence and over-talk over the call">
              {figures.timeline.map((t) => (
                <span class={`seg seg-${t.type}`} style={{ left: `${(100 * t.start) / duration}%`, width: `${(100 * (t.end - t.start)) / duration}%` }} />
              ))}
            </div>
          )}
          {figures.utteranceSentiment && (
            <ol class="sentiment" aria-label="Sentiment per utterance">
              {figures.utteranceSentiment.map((u) => (
                <li class={`pol-${u.polarity}`} title={`line ${u.line}: ${u.polarity} (${u.score})`}>
                  {u.polarity}
                </li>
              ))}
            </ol>
          )}
        </>
      )}
      {lines.length > 0 && (
        <ul class="insights">
          {lines.map((l) => (
            <li>
              {l.start !== undefined ? (
                <button type="button" class="link" onClick={() => onSeek(l.start!)}>
                  {seconds(l.start)}
                </button>
              ) : null}{' '}
              {l.name ?? ''} {l.text ?? ''}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
