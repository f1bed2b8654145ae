// Two service processes sharing one store: a configuration published on one is in force on the other at
// once when Redis carries the invalidation, and only after the cache lifetime without it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { dialects, json, startTestService, TEST_REDIS_URL, testDatabase, type TestDatabase, type TestService } from '../helpers/harness.js';

async function redisAvailable(): Promise<boolean> {
  const client = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch {
    if (process.env.SCRUBLINE_REQUIRE_REDIS === '1') throw new Error(`Redis is required but unreachable at ${TEST_REDIS_URL}`);
    return false;
  } finally {
    client.disconnect();
  }
}

const hasRedis = await redisAvailable();
const LONG = String(10 * 60_000); // a cache lifetime far longer than the test: only invalidation can refresh it

const publish = (svc: TestService, rules: string[]) =>
  svc.request({
    method: 'POST',
    url: '/system/cache/v2/publish',
    payload: { data: JSON.stringify({ sid: 'shared', rules: rules.map((name) => ({ name, active: true })) }) },
  });
const ruleNames = async (svc: TestService) =>
  json(await svc.request({ method: 'GET', url: '/system/get-parameter?sid=shared&name=rules' })).value.map((r: { name: string }) => r.name);

/** Whether `check` comes to hold; the bound is a backstop, far below the cache lifetime (LONG) it is told from. */
async function eventually(check: () => Promise<boolean>, ms = 60_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

for (const dialect of await dialects()) {
  describe(`scale-out (${dialect})`, { skip: !hasRedis && 'no Redis at ' + TEST_REDIS_URL }, () => {
    let database: TestDatabase;
    let a: TestService;
    let b: TestService;
    before(async () => {
      database = await testDatabase(dialect);
      const env = { REDIS_URL: TEST_REDIS_URL, SCRUBLINE_CONFIG_CACHE_MS: LONG };
      a = await startTestService(dialect, { database, env });
      b = await startTestService(dialect, { database, env });
    });
    after(async () => {
      await a.close();
      await b.close();
      await database.drop();
    });

    test('a publish on one process is in force on the other at once', async () => {
      assert.equal((await publish(a, ['Person'])).statusCode, 200);
      assert.deepEqual(await ruleNames(b), ['Person']); // b now caches version 1
      assert.equal((await publish(a, ['Person', 'Address'])).statusCode, 200);
      assert.ok(
        await eventually(async () => (await ruleNames(b)).length === 2),
        'b sees version 2 without waiting for its cache lifetime',
      );
      assert.equal(json(await b.request({ method: 'GET', url: '/asr/status' })).cache.bus, 'redis');
    });

    test('without the bus the other process keeps its cached copy (the control)', async () => {
      const lonely = await startTestService(dialect, { database, env: { SCRUBLINE_CONFIG_CACHE_MS: LONG } });
      try {
        const before = await ruleNames(lonely);
        assert.equal((await publish(a, [...before, 'ZipCode'])).statusCode, 200);
        // In order: once b (on the bus) has the new version, the invalidation has gone out; lonely still has the old.
        assert.ok(await eventually(async () => (await ruleNames(b)).includes('ZipCode')), 'b sees the new version');
        assert.deepEqual(await ruleNames(b), [...before, 'ZipCode']);
        assert.deepEqual(await ruleNames(lonely), before);
      } finally {
        await lonely.close();
      }
    });
  });
}
