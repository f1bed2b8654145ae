// At least once across crashes: a dispatcher killed (kill -9) while a send is in flight leaves its claim to
// expire, and the next dispatcher sends the same delivery again with the same webhook-id, once.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { verifySignature } from '../../src/jobs/notifications/index.js';
import { DeliveryStore, INTERRUPTED_ERROR } from '../../src/store/deliveries.js';
import { BOX_KEY, dialects, event, type Fixture, fixture, outbox, receiver, type Receiver, SECRET } from './helpers.js';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'dispatcher.ts');

for (const dialect of await dialects()) {
  describe(`notification restart (${dialect})`, () => {
    let fx: Fixture;
    let rx: Receiver | undefined;
    beforeEach(async () => {
      fx = await fixture(dialect);
    });
    afterEach(async () => {
      await rx?.close();
      rx = undefined;
      await fx.close();
    });

    test('kill -9 mid-send: after restart the same delivery id is sent once more, and the job shows both attempts', async () => {
      rx = await receiver((i) => (i === 0 ? 'hang' : { status: 200 }));
      const first = outbox(fx.database); // only to enqueue; this one does not dispatch
      const id = await first.outbox.enqueue(fx.database.db, { jobId: 'job-crash', url: rx.url, authHeaders: ['X-Key: k-123456789abc'], payload: event('job-crash') });

      const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
        env: {
          ...process.env,
          NOTIFY_DATA_DIR: fx.test.dataDir,
          NOTIFY_DATABASE_URL: fx.test.databaseUrl ?? '',
          NOTIFY_SCHEMA: fx.test.schema ?? '',
          NOTIFY_BOX_KEY: BOX_KEY,
          NOTIFY_SECRET: SECRET,
          // A lease and a send timeout far longer than any test step: the child never gives up on its own, and
          // the lease runs out when the test says so (by state), not when a clock does.
          NOTIFY_LEASE_MS: '1200000',
          NOTIFY_TIMEOUT_MS: '600000',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let childErr = '';
      child.stderr.on('data', (d) => (childErr += d));
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_, signal) => resolve(signal)));
      try {
        await rx.waitForHits(1, 20_000);
      } catch (error) {
        child.kill('SIGKILL');
        throw new Error(`${(error as Error).message}; child said: ${childErr}`);
      }
      child.kill('SIGKILL');
      assert.equal(await exited, 'SIGKILL');

      const store = new DeliveryStore(fx.database.db);
      const claim = (await store.get(id))!;
      assert.equal(claim.status, 'sending', 'the killed dispatcher left its claim');

      // While the claim's lease holds, a new dispatcher sends nothing.
      const restarted = outbox(fx.database, { leaseMs: 5000 });
      assert.equal(await restarted.outbox.runOnce(), 0, 'nothing is due while the lease holds');
      assert.equal(rx.hits.length, 1, 'not sent again while the lease holds');

      // The lease runs out (set by state, on the claim's own fencing token): the next dispatcher takes it over.
      const expired = new Date(Date.parse(claim.updated_at) - 1000).toISOString();
      const taken = await fx.database.db.updateTable('deliveries').set({ next_attempt_at: expired })
        .where('id', '=', id).where('next_attempt_at', '=', claim.next_attempt_at).executeTakeFirst();
      assert.equal(Number(taken.numUpdatedRows), 1, 'the claim was still the killed dispatcher\'s');
      assert.equal(await restarted.outbox.runOnce(), 1, 'taken over and sent');
      assert.equal(await restarted.outbox.runOnce(), 0, 'and then nothing more is due');
      assert.equal(rx.hits.length, 2, 'sent once more, not more');
      for (const hit of rx.hits) {
        assert.equal(hit.headers['webhook-id'], id);
        assert.ok(verifySignature(SECRET, hit.headers, hit.body));
        assert.equal(hit.headers['x-key'], 'k-123456789abc');
      }
      const [view] = await restarted.outbox.deliveriesFor('job-crash');
      assert.equal(view.status, 'delivered');
      assert.equal(view.attempts, 2);
      assert.equal(view.log.length, 2);
      assert.equal(view.log[0].error, INTERRUPTED_ERROR);
      assert.equal(view.log[0].interrupted, true);
      assert.equal(view.log[0].at, claim.updated_at, 'the interrupted attempt is dated at its claim');
      assert.equal(view.log[1].statusCode, 200);
      assert.deepEqual(restarted.calls.delivered, [['job-crash', id]]);
    });

    test('a claim left by a dispatcher that died (simulated) is taken over after its lease', async () => {
      rx = await receiver(() => ({ status: 200 }));
      const { outbox: ob, calls } = outbox(fx.database);
      const id = await ob.enqueue(fx.database.db, { jobId: 'job-lease', url: rx.url, payload: event('job-lease') });
      const store = new DeliveryStore(fx.database.db);
      // Claimed for a lease far longer than any test step (no race with a busy machine) ... and the claimant dies.
      const claimed = await store.claimDue(new Date(), 10, 600_000);
      assert.deepEqual(claimed.map((r) => r.id), [id]);

      assert.equal(await ob.runOnce(), 0, 'nothing is due while the lease holds');
      // The lease runs out (set by state, not waited for): the claim is taken over.
      const expired = new Date(Date.now() - 1000).toISOString();
      await fx.database.db.updateTable('deliveries').set({ next_attempt_at: expired }).where('id', '=', id).execute();
      assert.equal(await ob.runOnce(), 1);
      assert.equal(rx.hits.length, 1);
      assert.equal(rx.hits[0].headers['webhook-id'], id);
      assert.deepEqual(calls.delivered, [['job-lease', id]]);
      assert.equal(await ob.runOnce(), 0);
    });
  });
}
