// Compliance violations of a call: the insights marked complianceViolation (something that must be said) that
// were not said, as the job's analytics report them (analytics.insights[], type `compliance_violation`). Each is
// shown with its rule (the insight's name, expression and side, from the project version the job ran with) and
// its time: the stretch of the call where it had to be said, seekable like an insight line. Nothing here is
// words of the call, so nothing here can show a redacted value.
import { seconds } from '../format';

export interface AnalyticsInsight {
  id?: string;
  name?: string;
  type?: string;
  timestamp?: number;
}

/** An insight rule as a project configuration holds it (the fields a violation's place depends on). */
export interface InsightRule {
  id?: string;
  name?: string;
  expression?: string;
  channel?: number;
  complianceViolation?: boolean;
  enableStartOffset?: boolean;
  startOffset?: number;
  startLocation?: string;
  enableEndOffset?: boolean;
  endOffset?: number;
  endLocation?: string;
}

/** Where a rule had to be said, in seconds from the start (run.ts: offsets count from the start, or from the end when the location says `end`). */
export function windowOf(rule: InsightRule | undefined, duration: number): { start: number; end: number } {
  const at = (offset: number, location: string | undefined) => (location?.toLowerCase() === 'end' ? duration - offset : offset);
  const start = rule?.enableStartOffset && typeof rule.startOffset === 'number' ? at(rule.startOffset, rule.startLocation) : 0;
  const end = rule?.enableEndOffset && typeof rule.endOffset === 'number' ? at(rule.endOffset, rule.endLocation) : duration;
  return { start: Math.max(0, Math.min(start, duration)), end: Math.max(0, Math.min(end, duration)) };
}

export function Violations({
  insights,
  rules,
  duration,
  sideOf,
  onSeek,
}: {
  insights: AnalyticsInsight[] | undefined;
  rules: InsightRule[];
  duration: number;
  sideOf: (speaker: number) => string;
  onSeek: (t: number) => void;
}) {
  const violations = (insights ?? []).filter((i) => i.type === 'compliance_violation');
  if (violations.length === 0) return null;
  return (
    <section aria-labelledby="violations-title" class="violations">
      <h3 id="violations-title">Compliance violations ({violations.length})</h3>
      <ul aria-label="Compliance violations">
        {violations.map((v) => {
          const rule = rules.find((r) => r.id === v.id);
          const place = windowOf(rule, duration);
          const whole = place.start === 0 && place.end === duration;
          return (
            <li data-violation={v.id}>
              <button type="button" class="link" onClick={() => onSeek(typeof v.timestamp === 'number' ? v.timestamp : place.start)} title={`Play from ${seconds(place.start)}, where ${v.name ?? v.id} had to be said`}>
                {seconds(place.start)}–{seconds(place.end)}
              </button>{' '}
              <strong>{v.name ?? v.id}</strong>: not said{typeof rule?.channel === 'number' && rule.channel >= 0 ? ` by the ${sideOf(rule.channel).toLowerCase()}` : ''}
              {whole ? ' in the call' : ` between ${seconds(place.start)} and ${seconds(place.end)}`}
              {rule?.expression && (
                <>
                  {' '}
                  · rule <code>{rule.expression}</code>
                </>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
