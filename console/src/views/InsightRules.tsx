// The insight rules of a draft project (resource 19 `insights`), edited as its redaction rules are: each rule's
// id, name, expression (README "Insight expressions"), the side that must say it, whether it is a compliance rule
// (must be said: a violation when not) and the stretch of the call it must be said in. Fields the form does not
// show (responses, redaction flags, alerts) are kept as they were. The server validates every expression when
// the draft is previewed or published, and names the rule it refuses.
import type { InsightRule } from './Violations';

export type DraftInsight = InsightRule & { [field: string]: unknown };

/** What a preview found per rule, over the redacted sample. */
export interface InsightFinding {
  id: string;
  name?: string;
  type: 'match' | 'no_match' | 'compliance_violation';
  lines: { line: number; speaker: number; text: string }[];
}

const SIDES: [string, string][] = [
  ['', 'either'],
  ['0', 'agent'],
  ['1', 'caller'],
];

export function InsightRules({ insights, onChange }: { insights: DraftInsight[]; onChange: (next: DraftInsight[]) => void }) {
  const set = (i: number, patch: Partial<DraftInsight>) => onChange(insights.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset class="insight-rules">
      <legend>Insight rules</legend>
      {insights.length === 0 && <p class="hint">No insight rule: calls of the project are analysed without any.</p>}
      {insights.length > 0 && (
        <table class="rules">
          <thead>
            <tr>
              <th scope="col">Id</th>
              <th scope="col">Name</th>
              <th scope="col">Expression</th>
              <th scope="col">Said by</th>
              <th scope="col">Must be said</th>
              <th scope="col">Within the first (s)</th>
              <th scope="col">
                <span class="sr-only">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {insights.map((r, i) => (
              <tr data-insight-rule={i}>
                <td>
                  <input aria-label={`Id of insight rule ${i + 1}`} name={`insight-${i}-id`} value={r.id ?? ''} size={10} onInput={(e) => set(i, { id: e.currentTarget.value || undefined })} />
                </td>
                <td>
                  <input aria-label={`Name of insight rule ${i + 1}`} name={`insight-${i}-name`} value={r.name ?? ''} size={14} onInput={(e) => set(i, { name: e.currentTarget.value || undefined })} />
                </td>
                <td>
                  <input aria-label={`Expression of insight rule ${i + 1}`} name={`insight-${i}-expression`} value={r.expression ?? ''} size={24} onInput={(e) => set(i, { expression: e.currentTarget.value })} />
                </td>
                <td>
                  <select
                    aria-label={`Side of insight rule ${i + 1}`}
                    name={`insight-${i}-side`}
                    value={typeof r.channel === 'number' && r.channel >= 0 ? String(r.channel) : ''}
                    onChange={(e) => set(i, { channel: e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value) })}
                  >
                    {SIDES.map(([value, label]) => (
                      <option value={value}>{label}</option>
                    ))}
                  </select>
                </td>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Insight rule ${i + 1} must be said (a compliance violation when not)`}
                    name={`insight-${i}-violation`}
                    checked={r.complianceViolation === true}
                    onChange={(e) => set(i, { complianceViolation: e.currentTarget.checked || undefined })}
                  />
                </td>
                <td>
                  <input
                    type="number"
                    min={1}
                    aria-label={`Seconds from the start insight rule ${i + 1} must be said in (empty: the whole call)`}
                    name={`insight-${i}-within`}
                    value={r.enableEndOffset && typeof r.endOffset === 'number' ? r.endOffset : ''}
                    onInput={(e) => {
                      const n = Number(e.currentTarget.value);
                      set(i, e.currentTarget.value && n > 0 ? { enableEndOffset: true, endOffset: n, endLocation: undefined } : { enableEndOffset: undefined, endOffset: undefined });
                    }}
                  />
                </td>
                <td>
                  <button type="button" onClick={() => onChange(insights.filter((_, j) => j !== i))}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <button type="button" id="add-insight" onClick={() => onChange([...insights, { id: `insight-${insights.length + 1}`, expression: '' }])}>
        Add insight rule
      </button>
    </fieldset>
  );
}

const SIDE_NAME = ['Agent', 'Caller'];

/** The preview's findings: per rule, matched (with the words, from the redacted sample), not matched, or violated. */
export function InsightFindings({ findings }: { findings: InsightFinding[] }) {
  if (findings.length === 0) return null;
  return (
    <ul class="insight-findings" aria-label="Insight rules on the sample">
      {findings.map((f) => (
        <li data-finding={f.id} data-type={f.type}>
          <strong>{f.name ?? f.id}</strong>: {f.type === 'match' ? 'matched' : f.type === 'compliance_violation' ? 'violation (not said)' : 'not matched'}
          {f.lines.map((l) => (
            <>
              {' '}
              · line {l.line + 1}, {SIDE_NAME[l.speaker] ?? `Speaker ${l.speaker + 1}`}: “{l.text}”
            </>
          ))}
        </li>
      ))}
    </ul>
  );
}
