// The deliveries table: claims with leases, fencing of expired claims, the attempt log, counts.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { Database } from '../../src/store/database.js';
import { DeliveryStore, INTERRUPTED_ERROR, parseLog } from '../../src/store/deliveries.js';
import { dialects, type Fixture, fixture, open } from './helpers.js';

const T0 = new Date('2025-03-01T12:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const row = (id: string, jobId = 'job-1', nextAttemptAt = T0) => ({
  id,
  jobId,
  url: 'https://hooks.example.com/x',
  method: 'POST',
  headers: '[]',
  payload: '{"eventId":"e"}',
  nextAttemptAt,
  now: T0,
});

for (const dialect of await dialects()) {
  describe(`delivery store (${dialect})`, () => {
    let fx: Fixture;
    let store: DeliveryStore;
    beforeEach(async () => {
      fx = await fixture(dialect);
      store = new DeliveryStore(fx.database.db);
    });
    afterEach(() => fx.close());

    test('insert is idempotent by id; a new row is pending with an empty log', async () => {
      assert.equal(await store.insert(row('d1')), true);
      assert.equal(await store.insert({ ...row('d1'), url: 'https://other.example.com/' }), false);
      const d = await store.get('d1');
      assert.equal(d!.url, 'https://hooks.example.com/x');
      assert.equal(d!.status, 'pending');
      assert.equal(d!.attempts, 0);
      assert.deepEqual(parseLog(d!), []);
    });

    test('claimDue takes due rows only, once per lease, oldest due first', async () => {
      await store.insert(row('late', 'job-1', at(10_000)));
      await store.insert(row('b', 'job-1', at(2)));
      await store.insert(row('a', 'job-1', at(1)));
      const claimed = await store.claimDue(at(5), 10, 1000);
      assert.deepEqual(claimed.map((r) => r.id).sort(), ['a', 'b']);
      assert.ok(claimed.every((r) => r.status === 'sending' && r.next_attempt_at === at(1005).toISOString()));
      assert.deepEqual(await store.claimDue(at(500), 10, 1000), [], 'held by the lease');
      assert.deepEqual((await store.claimDue(at(10_000), 1, 1000)).map((r) => r.id), ['a'], 'limit, oldest due first');
    });

    test('an expired claim is taken over, its attempt logged as interrupted; the old claimant is fenced off', async () => {
      await store.insert(row('d1'));
      const [first] = await store.claimDue(at(0), 10, 1000);
      const [second] = await store.claimDue(at(1000), 10, 1000);
      assert.equal(second.id, 'd1');
      assert.equal(second.attempts, 1);
      assert.deepEqual(parseLog(second), [{ at: at(0).toISOString(), error: INTERRUPTED_ERROR, interrupted: true }]);

      // The first claimant comes back late: its attempt is logged, but it can no longer decide the outcome.
      assert.equal(await store.recordAttempt('d1', { at: at(0).toISOString(), statusCode: 200, durationMs: 1200 }, at(1200)), 2);
      assert.equal(await store.markDelivered('d1', first.next_attempt_at, at(1200)), false);
      assert.equal((await store.get('d1'))!.status, 'sending');
      // The current claimant can.
      assert.equal(await store.reschedule('d1', second.next_attempt_at, at(5000), at(1300)), true);
      const d = (await store.get('d1'))!;
      assert.equal(d.status, 'pending');
      assert.equal(d.next_attempt_at, at(5000).toISOString());
      assert.deepEqual(parseLog(d).map((e) => e.statusCode ?? e.error), [INTERRUPTED_ERROR, 200]);
      assert.equal(await store.markFailed('d1', second.next_attempt_at, at(1400)), false, 'a claim is used once');
    });

    test('claims from two connection pools at once never overlap', async () => {
      const other: Database = await open(fx.test);
      try {
        const otherStore = new DeliveryStore(other.db);
        for (let i = 0; i < 60; i++) await store.insert(row(`d${String(i).padStart(2, '0')}`));
        const claims = await Promise.all(
          [...Array(12).keys()].map((i) => (i % 2 ? store : otherStore).claimDue(at(1), 7, 60_000)),
        );
        const ids = claims.flat().map((r) => r.id);
        assert.equal(new Set(ids).size, ids.length, 'no row claimed twice');
        assert.equal(ids.length, 60, 'and together they took every due row');
      } finally {
        await other.close();
      }
    });

    test('listByJob, countByStatus, deleteByJob', async () => {
      await store.insert(row('x1', 'job-a'));
      await store.insert(row('x2', 'job-a', at(60_000)));
      await store.insert(row('y1', 'job-b'));
      const [claimed] = await store.claimDue(at(0), 1, 1000);
      await store.recordAttempt(claimed.id, { at: at(0).toISOString(), statusCode: 204, durationMs: 3 });
      assert.equal(await store.markDelivered(claimed.id, claimed.next_attempt_at), true);
      assert.deepEqual((await store.listByJob('job-a')).map((r) => r.id), ['x1', 'x2']);
      assert.deepEqual(await store.countByStatus(), { pending: 2, sending: 0, delivered: 1, failed: 0 });
      assert.equal(await store.deleteByJob('job-a'), 2);
      assert.deepEqual(await store.listByJob('job-a'), []);
      assert.deepEqual(await store.countByStatus(), { pending: 1, sending: 0, delivered: 0, failed: 0 });
    });
  });
}
