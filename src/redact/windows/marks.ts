// Client-marked sensitive windows (`sensitiveWindows`: an agent desktop's or IVR's pause/resume): checked where
// they arrive and turned into windows with source 'mark'. A mark that cannot be done exactly as asked (its end
// not after its start, a channel the recording does not have, an unknown kind) is a 400: fail closed.
import { invalid } from '../../errors.js';
import type { FieldIssue } from '../../schema/problem.js';
import type { SensitiveWindowMark } from '../../schema/resources/request.js';
import { canonicalKind } from '../policy.js';
import { SENSITIVE_KIND } from './apply.js';
import type { SensitiveWindow } from './types.js';

/** A form or query field's marks arrive as a JSON string: parsed here (the schema checks the rest). */
export function parseMarksField(value: unknown, field = 'sensitiveWindows'): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    throw invalid(`${field} must be a JSON array of {start, end, channel, kind?}`, [{ pointer: `/${field.split('.').join('/')}`, path: field, message: 'must be a JSON array' }]);
  }
}

/**
 * Check marks beyond their schema: end after start, the kind a known one, and (when the recording's channel
 * count is known) a channel the recording has. Throws a 400 naming the first bad mark.
 */
export function checkMarks(marks: readonly SensitiveWindowMark[] | undefined, options: { channels?: number; field?: string } = {}): void {
  const field = options.field ?? 'sensitiveWindows';
  const issues: FieldIssue[] = [];
  (marks ?? []).forEach((mark, i) => {
    const at = (name: string, message: string) => issues.push({ pointer: `/${field.split('.').join('/')}/${i}/${name}`, path: `${field}[${i}].${name}`, message });
    if (!(mark.end > mark.start)) at('end', 'must be after start');
    // The schema names the kinds; checked again for callers that did not validate (never 'all').
    if (mark.kind !== undefined && mark.kind !== SENSITIVE_KIND && (canonicalKind(mark.kind) ?? 'all') === 'all') at('kind', 'must be an entity kind name or SENSITIVE');
    if (options.channels !== undefined && mark.channel >= options.channels) {
      at('channel', `the recording has ${options.channels} channel${options.channels === 1 ? '' : 's'} (0-based): no channel ${mark.channel}`);
    }
  });
  if (issues.length > 0) throw invalid(`${issues[0].path} ${issues[0].message}`, issues);
}

/** Checked marks as windows (source 'mark'), kinds canonical. */
export function markWindows(marks: readonly SensitiveWindowMark[] | undefined): SensitiveWindow[] {
  return (marks ?? []).map((m) => {
    const kind = m.kind === undefined || m.kind === SENSITIVE_KIND ? undefined : canonicalKind(m.kind);
    return { channel: m.channel, start: m.start, end: m.end, kind: kind && kind !== 'all' ? kind : SENSITIVE_KIND, source: 'mark' as const };
  });
}
