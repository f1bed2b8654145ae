// When to try a notification again, and whether to. Pure functions over the outcome of one attempt.
//
// The schedule follows the common practice of webhook senders (Svix, Stripe, GitHub apps): quick retries for
// a blip, then longer gaps for an outage, over about a day in all: the delay before retry n is schedule[n-1]
// with ±10 % jitter, so that many deliveries failing together do not come back together.

/** Delays before retries 1..10 (ms): 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h (≈ 23.7 h in all). */
export const DEFAULT_SCHEDULE_MS: readonly number[] = [
  5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000, 28_800_000,
];
export const DEFAULT_JITTER = 0.1;
/** The longest wait a receiver's Retry-After is granted; beyond it the delivery comes back sooner. */
export const DEFAULT_RETRY_AFTER_CAP_MS = 3_600_000;

/** What one attempt came to: a response's status (and Retry-After), or an error before any response. */
export type AttemptOutcome =
  | { statusCode: number; retryAfter?: string | null }
  | { error: string; statusCode?: undefined };

export type Decision =
  | { action: 'delivered' }
  | { action: 'retry'; delayMs: number; at: Date; reason: string }
  | { action: 'fail'; reason: string };

export interface BackoffOptions {
  schedule?: readonly number[];
  /** Fraction of each delay drawn at random either way (0 for none). */
  jitter?: number;
  retryAfterCapMs?: number;
  /** Random numbers in [0, 1); tests pass a fixed one. */
  random?: () => number;
}

/** 2xx delivers; 408, 429 and 5xx are worth another try; any other status (4xx, 3xx, 1xx) is final. */
export function isRetryableStatus(statusCode: number): boolean {
  return statusCode === 408 || statusCode === 429 || (statusCode >= 500 && statusCode <= 599);
}

export function isSuccessStatus(statusCode: number): boolean {
  return statusCode >= 200 && statusCode <= 299;
}

/**
 * The wait a Retry-After header asks for, in ms: delta-seconds ("120") or an HTTP date
 * ("Wed, 21 Oct 2015 07:28:00 GMT"). Undefined when absent or unreadable; 0 for a date in the past.
 */
export function parseRetryAfter(value: string | null | undefined, now: Date = new Date()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Only an HTTP date (IMF-fixdate or its obsolete forms) is accepted, not any string Date.parse takes.
  if (!/^[A-Za-z]{3,9},? /.test(text)) return undefined;
  // asctime ("Sun Nov  6 08:49:37 1994") names no zone; HTTP dates are always GMT.
  const at = Date.parse(/\d{4}$/.test(text) ? `${text} GMT` : text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now.getTime());
}

/** The delay before retry number `retry` (1-based), jittered; undefined when the schedule is spent. */
export function scheduledDelay(retry: number, options: BackoffOptions = {}): number | undefined {
  const schedule = options.schedule ?? DEFAULT_SCHEDULE_MS;
  if (retry < 1 || retry > schedule.length) return undefined;
  const base = schedule[retry - 1];
  const jitter = options.jitter ?? DEFAULT_JITTER;
  const random = options.random ?? Math.random;
  return Math.max(0, Math.round(base * (1 + jitter * (2 * random() - 1))));
}

/** Attempts in all that a schedule allows: the first, then one per entry. */
export function maxAttempts(schedule: readonly number[] = DEFAULT_SCHEDULE_MS): number {
  return schedule.length + 1;
}

/**
 * What to do after attempt number `attempts` (1-based, this one included) ended with `outcome`.
 * A Retry-After on 429 or 503 is honoured: the retry comes no sooner than it asks (up to the cap), and
 * no sooner than the schedule says either.
 */
export function decide(attempts: number, outcome: AttemptOutcome, now: Date = new Date(), options: BackoffOptions = {}): Decision {
  let reason: string;
  let floorMs = 0;
  if (outcome.statusCode !== undefined) {
    const code = outcome.statusCode;
    if (isSuccessStatus(code)) return { action: 'delivered' };
    if (!isRetryableStatus(code)) {
      const why = code >= 300 && code < 400 ? ' (redirects are not followed)' : '';
      return { action: 'fail', reason: `HTTP ${code} is not retried${why}` };
    }
    reason = `HTTP ${code}`;
    if (code === 429 || code === 503) {
      const asked = parseRetryAfter(outcome.retryAfter, now);
      if (asked !== undefined) floorMs = Math.min(asked, options.retryAfterCapMs ?? DEFAULT_RETRY_AFTER_CAP_MS);
    }
  } else {
    reason = outcome.error;
  }
  const delay = scheduledDelay(attempts, options);
  if (delay === undefined) return { action: 'fail', reason: `${reason}; gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}` };
  const delayMs = Math.max(delay, floorMs);
  return { action: 'retry', delayMs, at: new Date(now.getTime() + delayMs), reason };
}
