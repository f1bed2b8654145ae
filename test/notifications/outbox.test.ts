// The notification outbox against a real local receiver, on each store dialect: retries with backoff until a
// 2xx, final failures, network errors, Retry-After, signing and auth headers, and credentials kept sealed.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { NotificationTargetError, verifySignature } from '../../src/jobs/notifications/index.js';
import { DeliveryStore } from '../../src/store/deliveries.js';
import { box, deadUrl, dialects, event, type Fixture, fixture, outbox, receiver, type Receiver, retriesScheduled, SECRET, until } from './helpers.js';

const TOKEN = 'S3cr3t-bearer-token-9a7c1e5f3b';
const TENANT_KEY = 'tenant-key-0f4e2d6c8a1b3579';
const AUTH = [`Authorization: Bearer ${TOKEN}`, `X-Tenant-Key: ${TENANT_KEY}`];

for (const dialect of await dialects()) {
  describe(`notification outbox (${dialect})`, () => {
    let fx: Fixture;
    let rx: Receiver | undefined;
    const stops: (() => Promise<void>)[] = [];
    beforeEach(async () => {
      fx = await fixture(dialect);
    });
    afterEach(async () => {
      for (const stop of stops.splice(0)) await stop();
      await rx?.close();
      rx = undefined;
      await fx.close();
    });
    const started = (options: Parameters<typeof outbox>[1] = {}) => {
      const made = outbox(fx.database, options);
      made.outbox.start();
      stops.push(() => made.outbox.stop());
      return made;
    };

    test('503 three times, then 200: delivered on the 4th try, signed, with the auth headers, every attempt logged', async () => {
      rx = await receiver((i) => ({ status: i < 3 ? 503 : 200 }));
      const { outbox: ob, calls, lines } = started();
      const id = await ob.enqueue(fx.database.db, { jobId: 'job-1', url: rx.url, authHeaders: AUTH, payload: event('job-1') });
      assert.match(id, /^msg_[A-Za-z0-9_-]{22}$/);
      await until(() => calls.delivered.length === 1, 60_000, 'delivery');
      await ob.stop(); // nothing more comes: the row is delivered and nothing is in flight

      assert.equal(rx.hits.length, 4);
      for (const hit of rx.hits) {
        assert.equal(hit.method, 'POST');
        assert.equal(hit.url, '/hooks/scrubline?tenant=acme');
        assert.equal(hit.headers['webhook-id'], id, 'the same webhook-id on every attempt');
        assert.ok(verifySignature(SECRET, hit.headers, hit.body), 'a valid signature on every attempt');
        assert.equal(hit.headers['content-type'], 'application/json');
        assert.match(hit.headers['user-agent']!, /^scrubline\/\d+\.\d+\.\d+/);
        assert.equal(hit.headers.authorization, `Bearer ${TOKEN}`);
        assert.equal(hit.headers['x-tenant-key'], TENANT_KEY);
        assert.deepEqual(JSON.parse(hit.body), event('job-1'));
      }
      // Backoff, by order of recorded events (no clock bound): each failed attempt scheduled the next one at least
      // its delay (50, 100, 150 ms; no jitter here) after it started, and each retry started no earlier than that.
      const scheduled = retriesScheduled(lines);
      const log = (await ob.deliveriesFor('job-1'))[0].log;
      assert.equal(scheduled.length, 3);
      [50, 100, 150].forEach((delay, i) => {
        assert.ok(scheduled[i] >= Date.parse(log[i].at) + delay, `retry ${i + 1} scheduled ${delay} ms on`);
        assert.ok(Date.parse(log[i + 1].at) >= scheduled[i], `retry ${i + 1} not started before it was due`);
      });

      assert.deepEqual(calls.delivered, [['job-1', id]]);
      assert.deepEqual(calls.failed, []);
      const [view] = await ob.deliveriesFor('job-1');
      assert.equal(view.deliveryId, id);
      assert.equal(view.status, 'delivered');
      assert.equal(view.attempts, 4);
      assert.equal(view.maxAttempts, 4);
      assert.equal(view.nextAttemptAt, null);
      assert.equal(view.lastStatusCode, 200);
      assert.deepEqual(view.log.map((a) => a.statusCode), [503, 503, 503, 200]);
      for (const attempt of view.log) {
        assert.ok(!Number.isNaN(Date.parse(attempt.at)));
        assert.equal(typeof attempt.durationMs, 'number');
      }
      assert.deepEqual(view.authHeaders, ['Authorization: ****bf3b'.replace('bf3b', TOKEN.slice(-4)), `X-Tenant-Key: ****${TENANT_KEY.slice(-4)}`]);
      assert.deepEqual(await ob.counts(), { pending: 0, sending: 0, delivered: 1, failed: 0 });

      // Secrets: not in the stored row, not in what the job shows, not in any log line.
      const row = await new DeliveryStore(fx.database.db).get(id);
      const everything = JSON.stringify(row) + JSON.stringify(await ob.deliveriesFor('job-1')) + lines.join('\n');
      for (const secret of [TOKEN, TENANT_KEY, SECRET, SECRET.slice(6)]) assert.ok(!everything.includes(secret), 'no secret in clear');
      const sealed = JSON.parse(row!.headers) as string[];
      assert.equal(sealed.length, 2);
      assert.ok(sealed.every((line) => box.isSealed(line)));
      assert.ok(lines.some((line) => line.includes('notification delivered')), 'deliveries are logged');
    });

    test('the deliveries of a page of jobs, in one query, are each job\'s own as asked one by one', async () => {
      const { outbox: ob } = outbox(fx.database); // not started: the deliveries stay pending
      const url = 'https://hooks.example.com/page';
      await ob.enqueue(fx.database.db, { jobId: 'job-a', url, authHeaders: AUTH, payload: event('job-a') });
      await ob.enqueue(fx.database.db, { jobId: 'job-b', url, payload: event('job-b') });
      await ob.enqueue(fx.database.db, { jobId: 'job-a', url: `${url}/2`, payload: event('job-a') });
      const page = await ob.deliveriesForJobs(['job-a', 'job-b', 'job-none']);
      assert.deepEqual([...page.keys()], ['job-a', 'job-b', 'job-none']);
      for (const jobId of ['job-a', 'job-b', 'job-none']) assert.deepEqual(page.get(jobId), await ob.deliveriesFor(jobId));
      // Both of job-a's (rows made in the same millisecond are ordered by id, in both queries alike).
      assert.deepEqual(page.get('job-a')!.map((d) => d.url).sort(), [url, `${url}/2`]);
      assert.ok(!JSON.stringify(page.get('job-a')).includes(TOKEN), 'auth headers masked as in the one-job view');
      assert.equal((await ob.deliveriesForJobs([])).size, 0);
    });

    test('a 400 fails at once with one attempt', async () => {
      rx = await receiver(() => ({ status: 400 }));
      const { outbox: ob, calls } = started();
      const id = await ob.enqueue(fx.database.db, { jobId: 'job-400', url: rx.url, payload: event('job-400') });
      await until(() => calls.failed.length === 1, 60_000, 'failure');
      await ob.stop(); // nothing more comes: the row is failed and nothing is in flight
      assert.equal(rx.hits.length, 1);
      assert.equal(calls.failed[0][1], id);
      assert.match(calls.failed[0][2], /HTTP 400/);
      assert.deepEqual(calls.delivered, []);
      const [view] = await ob.deliveriesFor('job-400');
      assert.equal(view.status, 'failed');
      assert.equal(view.attempts, 1);
      assert.deepEqual(view.log.map((a) => a.statusCode), [400]);
    });

    test('a redirect is not followed: failed, one attempt', async () => {
      rx = await receiver(() => ({ status: 307, headers: { location: 'http://127.0.0.1:9/elsewhere' } }));
      const { outbox: ob, calls } = started();
      await ob.enqueue(fx.database.db, { jobId: 'job-307', url: rx.url, authHeaders: AUTH, payload: event('job-307') });
      await until(() => calls.failed.length === 1, 60_000, 'failure');
      assert.equal(rx.hits.length, 1);
      assert.match(calls.failed[0][2], /redirect/);
    });

    test('a receiver that is down is retried until the schedule is spent, then failed', async () => {
      const url = await deadUrl();
      const { outbox: ob, calls } = started();
      const id = await ob.enqueue(fx.database.db, { jobId: 'job-down', url, payload: event('job-down') });
      await until(() => calls.failed.length === 1, 60_000, 'giving up');
      const [view] = await ob.deliveriesFor('job-down');
      assert.equal(view.deliveryId, id);
      assert.equal(view.status, 'failed');
      assert.equal(view.attempts, 4);
      assert.ok(view.log.every((a) => a.statusCode === undefined && a.error === 'connection failed'), JSON.stringify(view.log));
      assert.match(calls.failed[0][2], /gave up after 4 attempts/);
    });

    test('a receiver coming back up gets the delivery on a retry', async () => {
      const url = await deadUrl();
      // Driven attempt by attempt (runOnce), the retry made due by state: no race between the schedule and the
      // receiver starting on a busy machine.
      const { outbox: ob, calls } = outbox(fx.database, { schedule: [600_000, 600_000] });
      // The first attempt meets a closed port; the receiver then starts on that same port.
      const port = Number(new URL(url).port);
      const id = await ob.enqueue(fx.database.db, { jobId: 'job-up', url, payload: event('job-up') });
      assert.equal(await ob.runOnce(), 1);
      assert.equal((await ob.deliveriesFor('job-up'))[0].status, 'pending', 'refused, to be retried');
      assert.equal(await ob.runOnce(), 0, 'the retry is not due yet');
      const http = await import('node:http');
      let hits = 0;
      const server = http.createServer((_, res) => void (hits++, res.end('ok')));
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      stops.push(() => new Promise((resolve) => server.close(() => resolve())));
      await fx.database.db.updateTable('deliveries').set({ next_attempt_at: new Date(0).toISOString() }).where('id', '=', id).execute();
      assert.equal(await ob.runOnce(), 1);
      assert.deepEqual(calls.delivered, [['job-up', id]]);
      assert.equal(hits, 1);
      const [view] = await ob.deliveriesFor('job-up');
      assert.equal(view.log[0].error, 'connection failed');
      assert.equal(view.log.at(-1)!.statusCode, 200);
    });

    test('a receiver that never answers times out and is retried', async () => {
      rx = await receiver((i) => (i === 0 ? 'hang' : { status: 204 }));
      const { outbox: ob, calls } = started({ timeoutMs: 200, leaseMs: 600_000 });
      await ob.enqueue(fx.database.db, { jobId: 'job-slow', url: rx.url, payload: event('job-slow') });
      await until(() => calls.delivered.length === 1, 60_000, 'delivery');
      const [view] = await ob.deliveriesFor('job-slow');
      assert.match(view.log[0].error!, /timeout/);
      assert.equal(view.log[1].statusCode, 204);
      assert.equal(rx.hits[0].headers['webhook-id'], rx.hits[1].headers['webhook-id']);
    });

    test('429 with Retry-After is honoured (seconds), and capped', async () => {
      rx = await receiver((i) => (i === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 }));
      const { outbox: ob, calls, lines } = started();
      await ob.enqueue(fx.database.db, { jobId: 'job-429', url: rx.url, payload: event('job-429') });
      await until(() => calls.delivered.length === 1, 60_000, 'delivery');
      // By order of recorded events: the retry was scheduled a second on (not the schedule's 50 ms) and not
      // started before then.
      const log = (await ob.deliveriesFor('job-429'))[0].log;
      assert.deepEqual(log.map((a) => a.statusCode), [429, 200]);
      const [retryAt] = retriesScheduled(lines);
      assert.ok(retryAt >= Date.parse(log[0].at) + 1000, 'Retry-After: 1 is honoured (schedule says 50 ms)');
      assert.ok(Date.parse(log[1].at) >= retryAt, 'the retry did not start before it was due');

      // A receiver asking for an hour is tried again after the cap (by an outbox configured with it alone).
      await ob.stop();
      await rx.close();
      const when = new Date(Date.now() + 3600_000).toUTCString();
      rx = await receiver((i) => (i === 0 ? { status: 503, headers: { 'retry-after': when } } : { status: 200 }));
      const capped = started({ retryAfterCapMs: 300 });
      await capped.outbox.enqueue(fx.database.db, { jobId: 'job-503', url: rx.url, payload: event('job-503') });
      await until(() => capped.calls.delivered.length === 1, 60_000, 'capped delivery');
      const cappedLog = (await capped.outbox.deliveriesFor('job-503'))[0].log;
      const [cappedAt] = retriesScheduled(capped.lines);
      assert.ok(cappedAt >= Date.parse(cappedLog[0].at) + 300, 'not before the cap');
      assert.ok(cappedAt < Date.parse(cappedLog[0].at) + 3600_000 - 60_000, 'the hour asked for was capped');
      assert.ok(Date.parse(cappedLog[1].at) >= cappedAt);
    });

    test('PUT is used when asked; the body is the event record exactly as signed', async () => {
      rx = await receiver(() => ({ status: 202 }));
      const { outbox: ob, calls } = started();
      await ob.enqueue(fx.database.db, { jobId: 'job-put', url: rx.url, method: 'put', payload: event('job-put') });
      await until(() => calls.delivered.length === 1, 60_000, 'delivery');
      assert.equal(rx.hits[0].method, 'PUT');
      assert.ok(verifySignature(SECRET, rx.hits[0].headers, rx.hits[0].body));
    });

    test('enqueue lands with the caller transaction, or not at all', async () => {
      rx = await receiver(() => ({ status: 200 }));
      const { outbox: ob, calls } = started();
      await assert.rejects(
        fx.database.db.transaction().execute(async (trx) => {
          await ob.enqueue(trx, { jobId: 'job-rolled-back', url: rx!.url, payload: event('job-rolled-back') });
          throw new Error('the job update failed');
        }),
        /the job update failed/,
      );
      const id = await fx.database.db.transaction().execute((trx) => ob.enqueue(trx, { jobId: 'job-tx', url: rx!.url, payload: event('job-tx') }));
      // A DeliveryStore bound to a transaction does as well (the form Store.transaction's repositories give).
      await assert.rejects(
        fx.database.db.transaction().execute(async (trx) => {
          await ob.enqueue(new DeliveryStore(trx), { jobId: 'job-rolled-back', url: rx!.url, payload: event('job-rolled-back') });
          throw new Error('rolled back again');
        }),
        /rolled back again/,
      );
      ob.kick();
      await until(() => calls.delivered.length === 1, 60_000, 'delivery');
      await ob.stop();
      assert.deepEqual(await ob.deliveriesFor('job-rolled-back'), []);
      assert.equal(rx.hits.length, 1);
      assert.equal(rx.hits[0].headers['webhook-id'], id);
    });

    test('an explicit delivery id is idempotent; auth headers already sealed are kept as they are', async () => {
      rx = await receiver(() => ({ status: 200 }));
      const { outbox: ob, calls } = outbox(fx.database);
      const sealed = AUTH.map((line) => box.seal(line));
      const a = await ob.enqueue(fx.database.db, { id: 'msg_fixed', jobId: 'job-id', url: rx.url, authHeaders: sealed, payload: event('job-id') });
      const b = await ob.enqueue(fx.database.db, { id: 'msg_fixed', jobId: 'job-id', url: rx.url, authHeaders: sealed, payload: event('job-id') });
      assert.equal(a, 'msg_fixed');
      assert.equal(b, 'msg_fixed');
      const row = await new DeliveryStore(fx.database.db).get('msg_fixed');
      assert.deepEqual(JSON.parse(row!.headers), sealed);
      assert.equal(await ob.runOnce(), 1);
      assert.deepEqual(calls.delivered, [['job-id', 'msg_fixed']]);
      assert.equal(rx.hits.length, 1);
      assert.equal(rx.hits[0].headers.authorization, `Bearer ${TOKEN}`);
    });

    test('bad targets are refused with a clear error, quoting no header value', async () => {
      const { outbox: ob } = outbox(fx.database);
      const cases: [Record<string, unknown>, RegExp, string][] = [
        [{ url: 'ftp://example.com/x' }, /http or https, not ftp/, 'url'],
        [{ url: 'file:///etc/passwd' }, /http or https, not file/, 'url'],
        [{ url: 'not a url' }, /not a valid absolute URL/, 'url'],
        [{ url: '' }, /missing/, 'url'],
        [{ url: 'https://user:pw@example.com/' }, /must not carry credentials/, 'url'],
        [{ url: 'https://example.com/', method: 'GET' }, /POST or PUT/, 'method'],
        [{ url: 'https://example.com/', authHeaders: [`Bearer ${TOKEN}`] }, /"Name: value"/, 'auth_headers/0'],
        [{ url: 'https://example.com/', authHeaders: ['X-Ok: 1', `Bad Name: ${TOKEN}`] }, /invalid name/, 'auth_headers/1'],
        [{ url: 'https://example.com/', authHeaders: [`X-Token: ${TOKEN}\r\nX-Injected: 1`] }, /invalid value/, 'auth_headers/0'],
        [{ url: 'https://example.com/', authHeaders: [`webhook-signature: v1,${TOKEN}`] }, /set by the service/, 'auth_headers/0'],
      ];
      for (const [input, message, field] of cases) {
        await assert.rejects(
          ob.enqueue(fx.database.db, { jobId: 'job-bad', payload: event('job-bad'), ...input } as never),
          (error: Error) => {
            assert.ok(error instanceof NotificationTargetError, `${JSON.stringify(input)}: ${error}`);
            assert.match(error.message, message);
            assert.equal(error.field, field);
            assert.ok(!error.message.includes(TOKEN));
            return true;
          },
        );
      }
      assert.deepEqual(await ob.deliveriesFor('job-bad'), []);
    });

    test('stop() waits for a send in flight; one that outlasts the bound is handed back and sent again', async () => {
      let release: (() => void) | undefined;
      const http = await import('node:http');
      const seen: string[] = [];
      const server = http.createServer((req, res) => {
        seen.push(String(req.headers['webhook-id']));
        if (seen.length === 1) {
          release = () => res.end('ok'); // answered once stop() has begun (below)
        } else if (seen.length === 2) {
          // never answered: stop() must give up on it
        } else {
          res.end('ok');
        }
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      stops.push(async () => {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      });
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;

      const first = started({ stopTimeoutMs: 600_000 });
      await first.outbox.enqueue(fx.database.db, { jobId: 'job-stop', url, payload: event('job-stop') });
      await until(() => seen.length === 1, 60_000, 'first send');
      const stopping = first.outbox.stop();
      release!();
      await stopping;
      assert.equal(first.calls.delivered.length, 1, 'stop waited for the answer');

      const second = started({ stopTimeoutMs: 100 });
      const id = await second.outbox.enqueue(fx.database.db, { jobId: 'job-stop-2', url, payload: event('job-stop-2') });
      await until(() => seen.length === 2, 60_000, 'second send');
      await second.outbox.stop();
      const [view] = await second.outbox.deliveriesFor('job-stop-2');
      assert.equal(view.status, 'pending', 'handed back');
      assert.equal(view.attempts, 0, 'an aborted send is not counted');

      const third = started();
      await until(() => third.calls.delivered.length === 1, 60_000, 'resend');
      assert.deepEqual(seen.slice(1), [id, id]);
    });
  });
}
