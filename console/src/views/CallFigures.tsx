// The per-party figures of a call's analytics (issue 35), by Agent and Caller: talk speed, interruptions made and
// suffered, sentiment overall and per quarter of the call, loudness over time (dBFS per bucket, with average and
// peak), the stretches where nobody talked, the issues, outcomes and action items found, and the extractive
// summary. Every text here was taken from the redacted transcript, so it holds masks, never a masked value.
import { seconds } from '../format';

interface Party {
  speaker: number;
  role?: string;
  words_per_minute?: number | null;
  interruptions?: number;
  interruption_time?: number;
  interrupted?: number;
  sentiment?: string;
  sentiment_quarters?: ({ sentiment?: string; score?: number } | null)[];
}

interface Loudness {
  channel: number;
  speaker?: number;
  role?: string;
  bucket_seconds?: number;
  dbfs?: (number | null)[];
  average_dbfs?: number | null;
  peak_dbfs?: number | null;
}

interface Detection {
  line?: number;
  speaker?: number;
  role?: string;
  start?: number;
  phrase?: string;
  text?: string;
}

export interface PartyAnalytics {
  speakers?: Party[];
  loudness?: Loudness[];
  non_talk?: { start: number; end: number; duration: number }[];
  issues?: Detection[];
  outcomes?: Detection[];
  action_items?: Detection[];
  summary?: { text?: string };
}

/** Lowest level drawn (dBFS): quieter is drawn as silence. */
const FLOOR = -60;
const dbfs = (v: number | null | undefined) => (typeof v === 'number' ? `${v.toFixed(1)} dBFS` : '—');

export function CallFigures({ analytics, sideOf, onSeek }: { analytics: PartyAnalytics; sideOf: (speaker: number | undefined) => string; onSeek: (t: number) => void }) {
  const parties = analytics.speakers ?? [];
  const label = (role: string | undefined, speaker: number | undefined) => (role ? role.charAt(0).toUpperCase() + role.slice(1) : sideOf(speaker));
  const found = [
    ['Issues', 'issues', analytics.issues],
    ['Outcomes', 'outcomes', analytics.outcomes],
    ['Action items', 'action-items', analytics.action_items],
  ] as const;
  return (
    <>
      {parties.length > 0 && (
        <table class="jobs party-figures" aria-label="Figures per party">
          <thead>
            <tr>
              <th scope="col">Party</th>
              <th scope="col">Talk speed</th>
              <th scope="col">Interruptions made</th>
              <th scope="col">Interrupted</th>
              <th scope="col">Sentiment</th>
              {[1, 2, 3, 4].map((q) => (
                <th scope="col">Q{q}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {parties.map((p) => (
              <tr data-party={p.role ?? p.speaker}>
                <th scope="row">{label(p.role, p.speaker)}</th>
                <td data-figure="wpm">{typeof p.words_per_minute === 'number' ? `${Math.round(p.words_per_minute)} words/min` : '—'}</td>
                <td data-figure="interruptions">
                  {p.interruptions ?? 0}
                  {p.interruption_time ? ` (${seconds(p.interruption_time)})` : ''}
                </td>
                <td data-figure="interrupted">{p.interrupted ?? 0}</td>
                <td data-figure="sentiment">{p.sentiment ?? '—'}</td>
                {[0, 1, 2, 3].map((q) => {
                  const s = p.sentiment_quarters?.[q];
                  return (
                    <td data-quarter={q + 1} class={s?.sentiment ? `pol-cell pol-${s.sentiment}` : undefined}>
                      {s?.sentiment ?? '—'}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {(analytics.loudness ?? []).length > 0 && (
        <section aria-labelledby="loudness-title" class="loudness">
          <h3 id="loudness-title">Loudness over the call</h3>
          {analytics.loudness!.map((l) => {
            const party = label(l.role, l.speaker ?? (l.role ? undefined : l.channel));
            const levels = l.dbfs ?? [];
            return (
              <div class="loudness-party" data-loudness={l.role ?? l.channel}>
                <p>
                  <strong>{party}</strong>: average {dbfs(l.average_dbfs)}, peak {dbfs(l.peak_dbfs)}
                  {l.bucket_seconds ? `, one bar per ${seconds(l.bucket_seconds)}` : ''}
                </p>
                <div class="level-bars" role="img" aria-label={`${party}'s loudness over the call, average ${dbfs(l.average_dbfs)}, peak ${dbfs(l.peak_dbfs)}`}>
                  {levels.map((v, i) => (
                    <span
                      class="level"
                      title={`${seconds(i * (l.bucket_seconds ?? 1))}: ${dbfs(v)}`}
                      style={{ height: `${typeof v === 'number' ? Math.max(0, Math.min(100, ((v - FLOOR) / -FLOOR) * 100)) : 0}%` }}
                    />
                  ))}
                </div>
              </div>
            );
          })}
        </section>
      )}
      {(analytics.non_talk ?? []).length > 0 && (
        <section aria-labelledby="non-talk-title">
          <h3 id="non-talk-title">Nobody talking</h3>
          <ul class="non-talk">
            {analytics.non_talk!.map((n) => (
              <li data-non-talk={n.start}>
                <button type="button" class="link" onClick={() => onSeek(n.start)}>
                  {seconds(n.start)}
                </button>
                –{seconds(n.end)} ({seconds(n.duration)})
              </li>
            ))}
          </ul>
        </section>
      )}
      {found.some(([, , list]) => (list ?? []).length > 0) && (
        <section aria-labelledby="outcomes-title" class="outcomes">
          <h3 id="outcomes-title">Issues, outcomes and action items</h3>
          {found.map(([title, key, list]) =>
            (list ?? []).length === 0 ? null : (
              <>
                <h4>{title}</h4>
                <ul data-found={key}>
                  {list!.map((d) => (
                    <li>
                      {typeof d.start === 'number' && (
                        <button type="button" class="link" onClick={() => onSeek(d.start!)}>
                          {seconds(d.start)}
                        </button>
                      )}{' '}
                      <span class="side">{label(d.role, d.speaker)}:</span> {d.text ?? d.phrase ?? ''}
                    </li>
                  ))}
                </ul>
              </>
            ),
          )}
        </section>
      )}
      {analytics.summary?.text && (
        <section aria-labelledby="call-summary-title">
          <h3 id="call-summary-title">Summary</h3>
          <p id="call-summary">{analytics.summary.text}</p>
        </section>
      )}
    </>
  );
}
