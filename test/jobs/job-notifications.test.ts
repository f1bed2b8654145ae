// A job's terminal event reaches its notification target: signed, with the configured auth headers,
// retried past failures with the same delivery id, and every attempt visible on the job.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { loadWebhookSecret, verifySignature } from '../../src/jobs/notifications/index.js';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';

// Receivers here are on 127.0.0.1, which notifications may reach only when allowed (test/notifications/ssrf.test.ts).
const LOOPBACK_ALLOW = { SCRUBLINE_WEBHOOK_ALLOW: '127.0.0.0/8' };

interface Hit {
  headers: http.IncomingHttpHeaders;
  body: string;
  method: string;
}

function receiver(failures: number) {
  const hits: Hit[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      hits.push({ headers: req.headers, body, method: req.method! });
      res.statusCode = hits.length <= failures ? 503 : 200;
      res.end();
    });
  });
  return {
    hits,
    listen: () => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The value once `ok` holds (the bound is a backstop: what is asserted next fails if it never does). */
async function eventually<T>(get: () => Promise<T>, ok: (value: T) => boolean, ms = 120_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await get();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

for (const dialect of await dialects()) {
  describe(`job notifications (${dialect})`, () => {
    let svc: TestService;
    const hook = receiver(3);
    let url: string;
    before(async () => {
      url = await hook.listen();
      svc = await startTestService(dialect, { env: { SCRUBLINE_WEBHOOK_RETRY_MS: '50,100,150,200', ...LOOPBACK_ALLOW } });
      await svc.services.worker.start();
      svc.services.outbox.start();
    });
    after(async () => {
      await svc.close();
      await hook.close();
    });

    test('fails three times with 503, then arrives signed with the auth headers; the job shows every attempt', async () => {
      const submitted = await svc.request({
        method: 'POST',
        url: '/asr/transcribe',
        payload: { text: 'Agent: hello\nCaller: hi there', notification: { url, method: 'PUT', auth_headers: ['Authorization: Bearer receiver-token-123456', 'X-Tenant: acme'] } },
      });
      assert.equal(submitted.statusCode, 202, submitted.body);
      const jobId = json(submitted).jobId;
      const job = await eventually(
        async () => json(await svc.request({ method: 'GET', url: `/asr/jobs/${jobId}` })),
        (j) => j.webhookCompleted === true,
      );
      assert.equal(job.webhookCompleted, true, JSON.stringify(job.notifications));
      assert.equal(hook.hits.length, 4);
      const ids = new Set(hook.hits.map((h) => h.headers['webhook-id']));
      assert.equal(ids.size, 1, 'the same delivery id on every attempt');
      const last = hook.hits[3];
      assert.equal(last.method, 'PUT');
      assert.equal(last.headers.authorization, 'Bearer receiver-token-123456');
      assert.equal(last.headers['x-tenant'], 'acme');
      const secret = loadWebhookSecret(svc.database.dataDir);
      assert.ok(verifySignature(secret, last.headers as Record<string, string>, last.body), 'a valid Standard Webhooks signature');
      const event = JSON.parse(last.body);
      assert.deepEqual([event.type, event.subType, event.jobId, event.processJob.status], ['job', 'completed', jobId, 'completed']);
      assert.equal(event.processJob.request.notification.auth_headers[0], 'Authorization: ****3456', 'the payload masks credentials');

      const [delivery] = job.notifications;
      assert.equal(delivery.status, 'delivered');
      assert.equal(delivery.attempts, 4);
      assert.deepEqual(delivery.log.map((a: { statusCode?: number }) => a.statusCode), [503, 503, 503, 200]);
      assert.ok(!JSON.stringify(job).includes('receiver-token-123456'), 'the job record masks the auth header');
    });

    test('a bad notification target is refused when the job is submitted', async () => {
      const res = await svc.request({ method: 'POST', url: '/asr/transcribe', payload: { text: 'x', notification: { url: 'ftp://example.com/x' } } });
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(json(res).errors[0].pointer, '/notification/url');
      const webhook = await svc.request({ method: 'POST', url: '/asr/transcribe', payload: { text: 'x', webhook: 'not a url' } });
      assert.equal(webhook.statusCode, 400, webhook.body);
      assert.equal(json(webhook).errors[0].pointer, '/webhook');
    });
  });
}
