// How much work one input may ask of the service: insights per record and per project, words per insight
// expression, value rules per record, and the time and memory one task off the event loop may take. Each limit
// has a sane default and an environment variable for an operator who needs more. Read when used (not once at
// start), so every path sees the same value and a test can set one for its own service.

export interface WorkLimit {
  /** The environment variable that sets it. */
  env: string;
  /** Its value when the variable is absent or not a positive integer. */
  fallback: number;
}

/** A record's own active insights (those with an expression). */
export const RECORD_INSIGHTS: WorkLimit = { env: 'SCRUBLINE_MAX_RECORD_INSIGHTS', fallback: 100 };
/** A project's active insights. */
export const PROJECT_INSIGHTS: WorkLimit = { env: 'SCRUBLINE_MAX_PROJECT_INSIGHTS', fallback: 200 };
/** Words (terms, wildcards and # included) in one insight expression or response. */
export const EXPRESSION_TERMS: WorkLimit = { env: 'SCRUBLINE_MAX_EXPRESSION_TERMS', fallback: 64 };
/** Lines before / after a hit an insight's response is looked for in (searchLinesBefore/After are capped at it). */
export const RESPONSE_LINES: WorkLimit = { env: 'SCRUBLINE_MAX_RESPONSE_LINES', fallback: 50 };
/** Distinct value rules (redactionTypes rules with a value, content items) one record carries. */
export const RECORD_RULES: WorkLimit = { env: 'SCRUBLINE_MAX_RECORD_RULES', fallback: 200 };
/** Distinct regular-expression rules among them (each one is a pass over the whole record). */
export const RECORD_REGEX_RULES: WorkLimit = { env: 'SCRUBLINE_MAX_RECORD_REGEX_RULES', fallback: 50 };
/** Distinct rules (kind, mask, flags) a project configuration holds; copies are collapsed, not counted. */
export const PROJECT_RULES: WorkLimit = { env: 'SCRUBLINE_MAX_PROJECT_RULES', fallback: 200 };
/** Milliseconds one task on a redaction worker may run before the worker is stopped and the task failed. */
export const TASK_MS: WorkLimit = { env: 'SCRUBLINE_REDACT_TASK_MS', fallback: 120_000 };
/** Megabytes of JavaScript heap one redaction worker may use (past it the worker is stopped and its task failed). */
export const WORKER_HEAP_MB: WorkLimit = { env: 'SCRUBLINE_REDACT_WORKER_MB', fallback: 2048 };
/** Milliseconds running redaction tasks get to finish when the service stops, before their workers are stopped. */
export const CLOSE_GRACE_MS: WorkLimit = { env: 'SCRUBLINE_REDACT_CLOSE_GRACE_MS', fallback: 3000 };

/** The limit in force. */
export function limit(which: WorkLimit): number {
  const value = Number(process.env[which.env]);
  return process.env[which.env] && Number.isInteger(value) && value > 0 ? value : which.fallback;
}

/** "at most 100 (SCRUBLINE_MAX_RECORD_INSIGHTS)": how a refusal names the limit. */
export function named(which: WorkLimit): string {
  return `at most ${limit(which)} (${which.env})`;
}
