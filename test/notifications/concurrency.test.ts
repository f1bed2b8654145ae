// Several dispatchers on one database (two processes' connection pools): every attempt is made by exactly
// one of them, so each notification reaches the receiver once (or once per retry).
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { Database } from '../../src/store/database.js';
import { dialects, event, type Fixture, fixture, open, outbox, receiver, type Receiver, until } from './helpers.js';

for (const dialect of await dialects()) {
  describe(`notification dispatchers side by side (${dialect})`, () => {
    let fx: Fixture;
    let other: Database;
    let rx: Receiver | undefined;
    beforeEach(async () => {
      fx = await fixture(dialect);
      other = await open(fx.test);
    });
    afterEach(async () => {
      await rx?.close();
      rx = undefined;
      await other.close();
      await fx.close();
    });

    test('two outboxes deliver each notification once; retries are not doubled either', async () => {
      const N = 40;
      const seen = new Map<string, number>();
      // Every notification is refused once (503), then accepted. The first answers are held until more sends are
      // open at once than one outbox may have (concurrency 4): so both outboxes take part, by construction.
      const held: (() => void)[] = [];
      let gateOpen = false;
      rx = await receiver(async (_, hit) => {
        const id = String(hit.headers['webhook-id']);
        const n = (seen.get(id) ?? 0) + 1;
        seen.set(id, n);
        if (!gateOpen) {
          await new Promise<void>((resolve) => {
            held.push(resolve);
            if (held.length > 4) {
              gateOpen = true;
              for (const release of held.splice(0)) release();
            }
          });
        }
        return { status: n === 1 ? 503 : 200 };
      });
      const a = outbox(fx.database, { pollMs: 5, concurrency: 4, schedule: [30, 30, 30] });
      const b = outbox(other, { pollMs: 5, concurrency: 4, schedule: [30, 30, 30] });
      const ids = new Set<string>();
      for (let i = 0; i < N; i++) {
        ids.add(await a.outbox.enqueue(fx.database.db, { jobId: `job-${i}`, url: rx.url, payload: event(`job-${i}`) }));
      }
      a.outbox.start();
      b.outbox.start();
      try {
        await until(() => a.calls.delivered.length + b.calls.delivered.length === N, 60_000, 'all deliveries');
      } finally {
        // Stopped before counting: nothing is in flight after this, and every row is delivered (checked below).
        await a.outbox.stop();
        await b.outbox.stop();
      }
      assert.equal(rx.hits.length, 2 * N, 'one refused and one accepted attempt per notification, no more');
      assert.deepEqual(new Set(seen.keys()), ids);
      for (const [id, n] of seen) assert.equal(n, 2, `${id} reached the receiver ${n} times`);
      const delivered = [...a.calls.delivered, ...b.calls.delivered].map(([, id]) => id);
      assert.equal(new Set(delivered).size, N, 'onDelivered once per delivery');
      assert.ok(gateOpen, 'more sends were open at once than one outbox allows: both took part');
      const views = (await Promise.all([...Array(N).keys()].map((i) => a.outbox.deliveriesFor(`job-${i}`)))).flat();
      assert.ok(views.every((v) => v.status === 'delivered' && v.attempts === 2));
      assert.deepEqual(await a.outbox.counts(), { pending: 0, sending: 0, delivered: N, failed: 0 });
    });

    test('one outbox works through a backlog with at most `concurrency` sends at once', async () => {
      const http = await import('node:http');
      let open = 0;
      let peak = 0;
      let served = 0;
      // The first answer is held until a second send is open: the first claim takes 3 rows at once, so sends
      // overlap by construction, not by a race with the clock.
      let first: (() => void) | undefined;
      const server = http.createServer((_, res) => {
        open++;
        peak = Math.max(peak, open);
        const answer = () => {
          open--;
          served++;
          res.end('ok');
        };
        if (served === 0 && open === 1) first = answer;
        else {
          first?.();
          first = undefined;
          setImmediate(answer);
        }
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
      // A long poll interval: only a finishing send (or a kick) can move the backlog along quickly.
      const a = outbox(fx.database, { pollMs: 60_000, concurrency: 3 });
      try {
        for (let i = 0; i < 15; i++) await a.outbox.enqueue(fx.database.db, { jobId: `job-${i}`, url, payload: event(`job-${i}`) });
        a.outbox.start();
        await until(() => a.calls.delivered.length === 15, 60_000, 'the backlog');
      } finally {
        await a.outbox.stop();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
      assert.equal(served, 15);
      assert.ok(peak <= 3, `at most 3 at once (saw ${peak})`);
      assert.ok(peak >= 2, `sends overlap (saw ${peak})`);
    });
  });
}
