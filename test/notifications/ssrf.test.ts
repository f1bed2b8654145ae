// Notification targets cannot be used to reach inside the network: loopback, private, link-local, multicast
// and metadata addresses are refused at submit (a literal address or an internal name: 400) and on the
// resolved address when the connection is made (odd spellings, DNS rebinding), with a delivery log that
// says only "refused: target not allowed". An explicit allow-list lets a self-hosted receiver through.
// Urls are shown without query or credentials; a failed delivery can be sent again, once.
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import {
  DELIVERY_ERRORS,
  maskedUrl,
  NotificationTargetError,
  PUBLIC_ONLY,
  type Resolve,
  TargetPolicy,
  validateNotificationTarget,
} from '../../src/jobs/notifications/index.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { json, startTestService, type TestService } from '../helpers/harness.js';
import { dialects, event, type Fixture, fixture, LOOPBACK_ALLOW_ENV, outbox, receiver, type Receiver, until } from './helpers.js';

/** Urls refused at submit by the default policy, whatever the spelling of the address. */
const REFUSED_AT_SUBMIT = [
  'http://169.254.169.254/latest/meta-data/',
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://metadata/',
  'http://0x7f000001/',
  'http://2130706433/',
  'http://017700000001/',
  'http://127.1/',
  'http://[::1]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]/',
  'http://[::127.0.0.1]/',
  'http://10.0.0.5/',
  'http://172.16.3.4/',
  'http://172.31.255.255/',
  'http://192.168.1.1/',
  'http://100.64.0.1/',
  'http://100.100.100.200/',
  'http://[fc00::1]/',
  'http://[fd00:ec2::254]/',
  'http://[fe80::1]/',
  'http://[::ffff:169.254.169.254]/',
  'http://[64:ff9b::a9fe:a9fe]/',
  'http://0.0.0.0/',
  'http://0/',
  'http://224.0.0.1/',
  'http://[ff02::1]/',
  'http://255.255.255.255/',
  'http://localhost:8080/',
  'http://LOCALHOST./',
  'http://api.localhost/',
  'http://receiver:9000/hook',
  'http://printer.local/',
  'https://hooks.corp.internal/x',
];

const PUBLIC = ['https://hooks.example.com/x?token=1', 'http://8.8.8.8/', 'http://[2606:4700:4700::1111]/', 'https://172.32.0.1/', 'http://100.128.0.1/'];

/** A resolver that answers every name with the given addresses (a DNS answer the test controls). */
const answering =
  (...addresses: string[]): Resolve =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('notification target policy', () => {
  test('internal addresses and names are refused at submit, in every spelling', () => {
    for (const url of REFUSED_AT_SUBMIT) {
      assert.throws(
        () => validateNotificationTarget({ url }),
        (error: Error) => error instanceof NotificationTargetError && error.field === 'url' && /must not/.test(error.message),
        url,
      );
    }
    for (const url of PUBLIC) assert.doesNotThrow(() => validateNotificationTarget({ url }), url);
  });

  test('resolved addresses: only public ones pass; the allow-list opens what it names and nothing else', () => {
    for (const address of ['127.0.0.1', '127.255.0.9', '::1', '::ffff:127.0.0.1', '10.1.2.3', '169.254.169.254', 'fe80::1%eth0', 'fd12::1', '0.1.2.3', '239.1.1.1', 'nonsense']) {
      assert.equal(PUBLIC_ONLY.addressAllowed(address), false, address);
    }
    for (const address of ['93.184.216.34', '2606:4700::1111', '::ffff:8.8.8.8']) assert.equal(PUBLIC_ONLY.addressAllowed(address), true, address);

    const policy = new TargetPolicy(['10.20.0.0/16', '127.0.0.1', 'hooks.lan:8443', '*.svc.example']);
    assert.equal(policy.addressAllowed('10.20.3.4'), true);
    assert.equal(policy.addressAllowed('10.21.3.4'), false);
    assert.equal(policy.addressAllowed('127.0.0.1'), true);
    assert.equal(policy.addressAllowed('127.0.0.2'), false);
    assert.equal(policy.addressAllowed('169.254.169.254'), false);
    assert.equal(policy.nameAllowed(new URL('https://hooks.lan:8443/x')), true);
    assert.equal(policy.nameAllowed(new URL('https://hooks.lan/x')), false, 'another port');
    assert.equal(policy.nameAllowed(new URL('http://a.svc.example/')), true);
    assert.equal(policy.nameAllowed(new URL('http://svc.example.evil.com/')), false);
    assert.doesNotThrow(() => validateNotificationTarget({ url: 'https://hooks.lan:8443/x' }, policy));
    assert.doesNotThrow(() => validateNotificationTarget({ url: 'http://10.20.9.9/' }, policy));
    assert.throws(() => validateNotificationTarget({ url: 'http://10.30.9.9/' }, policy), NotificationTargetError);
    assert.throws(() => new TargetPolicy(['10.0.0.0/33']), /not a valid CIDR/);
    assert.throws(() => new TargetPolicy(['http://x/']), /neither/);
  });

  test('the allow-list setting is read and checked at start', () => {
    assert.deepEqual(loadConfig({}).webhookAllow, []);
    assert.deepEqual(loadConfig({ SCRUBLINE_WEBHOOK_ALLOW: '10.0.0.0/8, hooks.lan:8443 ::1' }).webhookAllow, ['10.0.0.0/8', 'hooks.lan:8443', '::1']);
    assert.throws(() => loadConfig({ SCRUBLINE_WEBHOOK_ALLOW: '10.0.0.0/40' }), ConfigError);
  });

  test('urls are shown without userinfo, query or fragment', () => {
    assert.equal(maskedUrl('https://user:pw@hooks.example.com/a/b?token=x#frag'), 'https://hooks.example.com/a/b?…');
    assert.equal(maskedUrl('https://hooks.example.com/a'), 'https://hooks.example.com/a');
    assert.equal(maskedUrl('not a url'), '(invalid url)');
  });
});

for (const dialect of await dialects()) {
  describe(`notification targets at connect time (${dialect})`, () => {
    let fx: Fixture;
    let rx: Receiver;
    const stops: (() => Promise<void>)[] = [];
    beforeEach(async () => {
      fx = await fixture(dialect);
      rx = await receiver(() => ({ status: 200 }));
    });
    afterEach(async () => {
      for (const stop of stops.splice(0)) await stop();
      await rx.close();
      await fx.close();
    });
    const port = () => new URL(rx.url).port;
    /** An outbox with the default policy (or the one given), its sends run by runOnce. */
    const make = (options: Parameters<typeof outbox>[1] = {}) => {
      const made = outbox(fx.database, { policy: PUBLIC_ONLY, ...options });
      stops.push(() => made.outbox.stop());
      return made;
    };

    test('a loopback receiver in any spelling is refused at connect: no request, one attempt, a generic error', async () => {
      const { outbox: ob, calls, lines } = make();
      const urls = [rx.url, `http://0x7f000001:${port()}/x`, `http://2130706433:${port()}/x`, `http://[::1]:${port()}/x`, `http://[::ffff:127.0.0.1]:${port()}/x`];
      // The real OS resolver: localhost resolves to loopback.
      urls.push(`http://localhost:${port()}/x`);
      for (const [i, url] of urls.entries()) await ob.enqueue(fx.database.db, { jobId: `job-${i}`, url, payload: event(`job-${i}`) });
      assert.equal(await ob.runOnce(), urls.length);
      assert.equal(rx.hits.length, 0, 'nothing reached the receiver');
      for (const [i] of urls.entries()) {
        const [view] = await ob.deliveriesFor(`job-${i}`);
        assert.equal(view.status, 'failed', urls[i]);
        assert.equal(view.attempts, 1, 'a refused target is not retried');
        assert.deepEqual(view.log.map((a) => [a.statusCode, a.error]), [[undefined, DELIVERY_ERRORS.refused]], urls[i]);
        assert.equal(view.lastStatusCode, null);
      }
      assert.ok(calls.failed.every(([, , reason]) => reason === DELIVERY_ERRORS.refused), JSON.stringify(calls.failed));
      assert.ok(lines.some((line) => line.includes('ETARGETNOTALLOWED')), 'the server log has the cause');
    });

    test('DNS rebinding: a public-looking name that resolves to loopback is refused at connect', async () => {
      const url = `http://hooks.rebind.example:${port()}/x`;
      assert.doesNotThrow(() => validateNotificationTarget({ url }), 'the name passes the submit check');
      const { outbox: ob, calls } = make({ resolve: answering('127.0.0.1') });
      await ob.enqueue(fx.database.db, { jobId: 'job-rebind', url, payload: event('job-rebind') });
      assert.equal(await ob.runOnce(), 1);
      // One answer among several that is internal refuses the whole request.
      const mixed = make({ resolve: answering('93.184.216.34', '127.0.0.1') });
      await mixed.outbox.enqueue(fx.database.db, { jobId: 'job-mixed', url, payload: event('job-mixed') });
      assert.equal(await mixed.outbox.runOnce(), 1);
      assert.equal(rx.hits.length, 0);
      assert.equal(calls.failed.length + mixed.calls.failed.length, 2);
      for (const jobId of ['job-rebind', 'job-mixed']) {
        const [view] = await ob.deliveriesFor(jobId);
        assert.deepEqual(view.log.map((a) => a.error), [DELIVERY_ERRORS.refused]);
      }
    });

    test('errors in the log name no host, port or system error', async () => {
      // A name that does not resolve, and a closed port on an allowed address.
      const failing: Resolve = async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND db-primary.corp.example'), { code: 'ENOTFOUND' });
      };
      const { outbox: ob } = make({ resolve: failing, schedule: [] });
      await ob.enqueue(fx.database.db, { jobId: 'job-dns', url: 'http://db-primary.corp.example:5432/', payload: event('job-dns') });
      assert.equal(await ob.runOnce(), 1);
      await rx.close();
      const allowed = make({ policy: new TargetPolicy(['127.0.0.1']), schedule: [] });
      await allowed.outbox.enqueue(fx.database.db, { jobId: 'job-closed', url: rx.url, payload: event('job-closed') });
      assert.equal(await allowed.outbox.runOnce(), 1);
      for (const jobId of ['job-dns', 'job-closed']) {
        const [view] = await ob.deliveriesFor(jobId);
        assert.equal(view.status, 'failed');
        assert.match(view.log[0].error!, /^connection failed/);
        const shown = JSON.stringify(view.log) + view.lastError;
        for (const leak of ['ENOTFOUND', 'ECONNREFUSED', 'db-primary', '5432', port(), '127.0.0.1']) assert.ok(!shown.includes(leak), `${leak} in ${shown}`);
      }
      rx = await receiver(() => ({ status: 200 })); // for afterEach
    });

    test('the allow-list lets a loopback receiver through, by address or by host:port name', async () => {
      const byAddress = make({ policy: new TargetPolicy(['127.0.0.0/8']) });
      await byAddress.outbox.enqueue(fx.database.db, { jobId: 'job-cidr', url: rx.url, payload: event('job-cidr') });
      assert.equal(await byAddress.outbox.runOnce(), 1);
      assert.equal(byAddress.calls.delivered.length, 1);

      // A name on the list is trusted whatever it resolves to; the same name on another port is not.
      const url = `http://hooks.lan:${port()}/x`;
      const byName = make({ policy: new TargetPolicy([`hooks.lan:${port()}`]), resolve: answering('127.0.0.1') });
      await byName.outbox.enqueue(fx.database.db, { jobId: 'job-name', url, payload: event('job-name') });
      assert.equal(await byName.outbox.runOnce(), 1);
      assert.deepEqual(byName.calls.failed, []);
      const otherPort = make({ policy: new TargetPolicy(['hooks.lan:1']), resolve: answering('127.0.0.1') });
      await otherPort.outbox.enqueue(fx.database.db, { jobId: 'job-port', url, payload: event('job-port') });
      assert.equal(await otherPort.outbox.runOnce(), 1);
      assert.equal(otherPort.calls.failed.length, 1);
      assert.equal(rx.hits.length, 2, 'the two allowed deliveries arrived, the other did not');
    });
  });

  describe(`notification targets through the API (${dialect})`, () => {
    let strict: TestService;
    let open: TestService;
    let rx: Receiver;
    let recovered = false;
    before(async () => {
      // The refusals are tested on a service with the default policy; the rest on one allowing loopback.
      strict = await startTestService(dialect);
      open = await startTestService(dialect, { env: { ...LOOPBACK_ALLOW_ENV, SCRUBLINE_WEBHOOK_RETRY_MS: '20,20' } });
      rx = await receiver(() => (recovered ? { status: 200 } : { status: 503 }));
    });
    after(async () => {
      await open?.close();
      await strict?.close();
      await rx?.close();
    });

    test('internal targets are a 400 at submit, naming the field', async () => {
      for (const url of REFUSED_AT_SUBMIT) {
        const res = await strict.request({ method: 'POST', url: '/asr/transcribe', payload: { text: 'x', notification: { url } } });
        assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
        assert.equal(json(res).errors[0].pointer, '/notification/url');
      }
      const webhook = await strict.request({ method: 'POST', url: '/asr/transcribe', payload: { text: 'x', webhook: 'http://169.254.169.254/' } });
      assert.equal(webhook.statusCode, 400);
      assert.equal(json(webhook).errors[0].pointer, '/webhook');
      const jobs = json(await strict.request({ method: 'GET', url: '/asr/jobs' }));
      assert.equal(jobs.total, 0, 'nothing was accepted');
    });

    test('urls are shown without query or credentials; the receiver gets the full url', async () => {
      const url = `${rx.url}&token=hook-secret-7f3a9c`;
      const res = await open.request({ method: 'POST', url: '/asr/transcribe', payload: { text: 'Agent: hi', notification: { url }, wait: 20 } });
      const viaWebhook = await open.request({ method: 'POST', url: '/asr/transcribe', payload: { text: 'Agent: hi', webhook: url, wait: 20 } });
      for (const answer of [res, viaWebhook]) assert.ok(answer.statusCode < 300, answer.body);
      const masked = `http://127.0.0.1:${new URL(rx.url).port}/hooks/scrubline?…`;
      const job = json(await open.request({ method: 'GET', url: `/asr/jobs/${json(res).jobId}` }));
      assert.equal(job.request.notification.url, masked);
      const other = json(await open.request({ method: 'GET', url: `/asr/jobs/${json(viaWebhook).jobId}` }));
      assert.equal(other.webhook, masked);
      await until(async () => (await open.services.outbox.deliveriesFor(job.jobId)).length === 1, 10_000, 'the delivery');
      const list = json(await open.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/notifications` }));
      assert.equal(list.notifications[0].url, masked);
      const all = json(await open.request({ method: 'GET', url: '/asr/jobs' }));
      for (const shown of [JSON.stringify(job), JSON.stringify(other), JSON.stringify(list), JSON.stringify(all)]) {
        assert.ok(!shown.includes('hook-secret-7f3a9c'), 'the token is not shown');
        assert.ok(!shown.includes('tenant=acme'));
      }
      await rx.waitForHits(1);
      assert.equal(rx.hits[0].url, '/hooks/scrubline?tenant=acme&token=hook-secret-7f3a9c', 'the full url is used to deliver');
      // The receiver answers 503 here: both deliveries end failed, leaving nothing due for the next test.
      for (const jobId of [job.jobId, other.jobId]) {
        await until(async () => (await open.services.outbox.deliveriesFor(jobId))[0]?.status === 'failed', 20_000, 'retries used up');
      }
    });

    test('a failed delivery is sent again on request, once, to a recovered receiver', async () => {
      recovered = false;
      const res = await open.request({ method: 'POST', url: '/asr/transcribe', payload: { text: 'Agent: hi', notification: { url: rx.url }, wait: 20 } });
      const jobId = json(res).jobId;
      const deliveries = () => open.services.outbox.deliveriesFor(jobId);
      await until(async () => (await deliveries())[0]?.status === 'failed', 20_000, 'retries used up');
      const [failed] = await deliveries();
      assert.equal(failed.attempts, 3);
      const id = failed.deliveryId;
      const before = rx.hits.filter((h) => h.headers['webhook-id'] === id).length;
      assert.equal(before, 3);

      const unknown = await open.request({ method: 'POST', url: `/asr/jobs/${jobId}/notifications/msg_nope/redeliver` });
      assert.equal(unknown.statusCode, 404, unknown.body);
      const noJob = await open.request({ method: 'POST', url: `/asr/jobs/nope/notifications/${id}/redeliver` });
      assert.equal(noJob.statusCode, 404, noJob.body);
      for (const bad of ['msg%00x', 'msg%20x', 'x'.repeat(10_000)]) {
        const res = await open.request({ method: 'POST', url: `/asr/jobs/${jobId}/notifications/${bad}/redeliver` });
        assert.ok([400, 414].includes(res.statusCode), `${res.statusCode}: ${res.body.slice(0, 300)}`);
      }

      recovered = true;
      const again = await open.request({ method: 'POST', url: `/asr/jobs/${jobId}/notifications/${id}/redeliver` });
      assert.equal(again.statusCode, 202, again.body);
      assert.equal(json(again).deliveryId, id);
      assert.equal(json(again).status, 'pending');
      assert.equal(json(again).attempts, 0);
      await until(async () => (await deliveries())[0].status === 'delivered', 20_000, 'redelivered');
      const [delivered] = await deliveries();
      assert.equal(delivered.attempts, 1);
      assert.deepEqual(
        delivered.log.map((a) => a.statusCode ?? (a.requeued ? 'requeued' : a.error)),
        [503, 503, 503, 'requeued', 200],
      );
      // Delivered: not again, and nothing left to send.
      const twice = await open.request({ method: 'POST', url: `/asr/jobs/${jobId}/notifications/${id}/redeliver` });
      assert.equal(twice.statusCode, 409, twice.body);
      assert.equal(await open.services.outbox.runOnce(), 0);
      const hits = rx.hits.filter((h) => h.headers['webhook-id'] === id);
      assert.equal(hits.length, before + 1, 'exactly one more request, with the same webhook-id');
      const job = json(await open.request({ method: 'GET', url: `/asr/jobs/${jobId}` }));
      assert.equal(job.webhookCompleted, true);
    });

    test('redeliver is in the OpenAPI document', async () => {
      const doc = json(await open.request({ method: 'GET', url: '/openapi.json' }));
      const path = doc.paths['/asr/jobs/{jobId}/notifications/{deliveryId}/redeliver'];
      assert.ok(path?.post, Object.keys(doc.paths).join(', '));
      assert.ok(path.post.responses['202']);
      assert.ok(doc.paths['/asr/jobs/{jobId}/notifications']?.get);
    });
  });
}
