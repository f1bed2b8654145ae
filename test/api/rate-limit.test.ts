// Requests per key per minute: the next one is a 429 problem with Retry-After; other keys are unaffected.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { json, startTestService, type TestService } from '../helpers/harness.js';

describe('rate limit', () => {
  let svc: TestService;
  let a: string;
  let b: string;
  before(async () => {
    svc = await startTestService('sqlite', { env: { SCRUBLINE_RATE_LIMIT_PER_MINUTE: '3' } });
    a = (await svc.services.store.apiKeys.create('a', 'read')).key;
    b = (await svc.services.store.apiKeys.create('b', 'read')).key;
  });
  after(() => svc.close());

  const get = (key: string, url = '/asr/params') => svc.request({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });

  test('the fourth call in a minute is refused with Retry-After', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await get(a)).statusCode, 200);
    const refused = await get(a);
    assert.equal(refused.statusCode, 429);
    assert.match(refused.headers['content-type'] as string, /problem\+json/);
    const retryAfter = Number(refused.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `retry-after ${refused.headers['retry-after']}`);
    assert.match(json(refused).detail, /More than 3 requests in a minute/);
  });

  test('another key has its own allowance, and health checks are never limited', async () => {
    assert.equal((await get(b)).statusCode, 200);
    for (let i = 0; i < 5; i++) assert.equal((await svc.request({ method: 'GET', url: '/health' })).statusCode, 200);
  });
});
