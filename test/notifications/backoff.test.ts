// The retry schedule and decisions: pure functions, no clock but the one passed in.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  decide,
  DEFAULT_SCHEDULE_MS,
  isRetryableStatus,
  maxAttempts,
  parseRetryAfter,
  scheduledDelay,
} from '../../src/jobs/notifications/backoff.js';

const NOW = new Date('2025-03-01T12:00:00.000Z');
const fixed = { jitter: 0 };

describe('notification backoff', () => {
  test('the default schedule spans about a day over 11 attempts, growing', () => {
    const total = DEFAULT_SCHEDULE_MS.reduce((a, b) => a + b, 0);
    assert.ok(total > 20 * 3600_000 && total < 28 * 3600_000, `total ${total / 3600_000} h`);
    assert.equal(maxAttempts(), 11);
    for (let i = 1; i < DEFAULT_SCHEDULE_MS.length; i++) assert.ok(DEFAULT_SCHEDULE_MS[i] >= DEFAULT_SCHEDULE_MS[i - 1]);
    assert.equal(DEFAULT_SCHEDULE_MS[0], 5000);
  });

  test('jitter stays within ±10 % and is off with jitter 0', () => {
    assert.equal(scheduledDelay(1, { random: () => 0 }), 4500);
    assert.equal(scheduledDelay(1, { random: () => 0.999999 }), 5500);
    assert.equal(scheduledDelay(2, fixed), 30_000);
    for (let i = 0; i < 200; i++) {
      const d = scheduledDelay(3)!;
      assert.ok(d >= 108_000 && d <= 132_000, String(d));
    }
    assert.equal(scheduledDelay(11), undefined);
    assert.equal(scheduledDelay(0), undefined);
  });

  test('which statuses are retried', () => {
    for (const code of [408, 429, 500, 502, 503, 504, 599]) assert.ok(isRetryableStatus(code), String(code));
    for (const code of [200, 301, 302, 400, 401, 403, 404, 409, 410, 413, 422]) assert.ok(!isRetryableStatus(code), String(code));
  });

  test('2xx delivers; 4xx and 3xx fail at once; 5xx, 408, 429 and network errors retry', () => {
    assert.deepEqual(decide(1, { statusCode: 204 }, NOW), { action: 'delivered' });
    assert.equal(decide(1, { statusCode: 400 }, NOW).action, 'fail');
    assert.equal(decide(1, { statusCode: 404 }, NOW).action, 'fail');
    const redirect = decide(1, { statusCode: 302 }, NOW);
    assert.ok(redirect.action === 'fail' && /redirect/.test(redirect.reason));
    for (const outcome of [{ statusCode: 503 }, { statusCode: 408 }, { statusCode: 429 }, { error: 'ECONNREFUSED' }]) {
      const d = decide(1, outcome, NOW, fixed);
      assert.equal(d.action, 'retry', JSON.stringify(outcome));
      if (d.action === 'retry') assert.equal(d.at.getTime(), NOW.getTime() + 5000);
    }
  });

  test('retries stop when the schedule is spent', () => {
    const schedule = [10, 20];
    assert.equal(decide(1, { statusCode: 500 }, NOW, { schedule, jitter: 0 }).action, 'retry');
    const second = decide(2, { statusCode: 500 }, NOW, { schedule, jitter: 0 });
    assert.ok(second.action === 'retry' && second.delayMs === 20);
    const third = decide(3, { error: 'ETIMEDOUT' }, NOW, { schedule, jitter: 0 });
    assert.ok(third.action === 'fail' && /gave up after 3 attempts/.test(third.reason) && /ETIMEDOUT/.test(third.reason));
    assert.equal(decide(11, { statusCode: 503 }, NOW).action, 'fail');
  });

  test('Retry-After as seconds or HTTP date', () => {
    assert.equal(parseRetryAfter('120', NOW), 120_000);
    assert.equal(parseRetryAfter(' 0 ', NOW), 0);
    assert.equal(parseRetryAfter('Sat, 01 Mar 2025 12:05:00 GMT', NOW), 300_000);
    assert.equal(parseRetryAfter('Saturday, 01-Mar-25 12:05:00 GMT', NOW), 300_000);
    assert.equal(parseRetryAfter('Sat Mar  1 12:05:00 2025', NOW), 300_000);
    assert.equal(parseRetryAfter('Sat, 01 Mar 2025 11:00:00 GMT', NOW), 0, 'a past date means now');
    for (const bad of [undefined, null, '', '-5', '1.5', 'soon', '2025-03-01T12:05:00Z']) assert.equal(parseRetryAfter(bad, NOW), undefined, String(bad));
  });

  test('Retry-After on 429 and 503 delays the retry, never below the schedule, up to the cap', () => {
    const d429 = decide(1, { statusCode: 429, retryAfter: '60' }, NOW, fixed);
    assert.ok(d429.action === 'retry' && d429.delayMs === 60_000);
    const d503 = decide(1, { statusCode: 503, retryAfter: 'Sat, 01 Mar 2025 12:10:00 GMT' }, NOW, fixed);
    assert.ok(d503.action === 'retry' && d503.delayMs === 600_000);
    const short = decide(2, { statusCode: 429, retryAfter: '1' }, NOW, fixed);
    assert.ok(short.action === 'retry' && short.delayMs === 30_000, 'a shorter ask than the schedule waits for the schedule');
    const capped = decide(1, { statusCode: 429, retryAfter: '999999' }, NOW, fixed);
    assert.ok(capped.action === 'retry' && capped.delayMs === 3_600_000, 'capped at one hour by default');
    const custom = decide(1, { statusCode: 503, retryAfter: '999999' }, NOW, { jitter: 0, retryAfterCapMs: 120_000 });
    assert.ok(custom.action === 'retry' && custom.delayMs === 120_000);
    const ignored = decide(1, { statusCode: 500, retryAfter: '600' }, NOW, fixed);
    assert.ok(ignored.action === 'retry' && ignored.delayMs === 5000, 'Retry-After is only read on 429 and 503');
    const garbage = decide(1, { statusCode: 429, retryAfter: 'later' }, NOW, fixed);
    assert.ok(garbage.action === 'retry' && garbage.delayMs === 5000);
  });
});
