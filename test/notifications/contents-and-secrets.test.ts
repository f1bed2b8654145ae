// Notifications (issue 22): `notification.contents` puts the transcript in the payload (the redacted one when
// redaction ran; never a redacted value), and a project's own signing secrets, rotated with two valid at once
// (each signs: the webhook-signature header holds both signatures).
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { generateSecret, loadWebhookSecret, verifySignature } from '../../src/jobs/notifications/index.js';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';
import { until } from '../helpers/poll.js';

const LOOPBACK_ALLOW = { SCRUBLINE_WEBHOOK_ALLOW: '127.0.0.0/8' };
const CALL = ['Agent: may i have your name please', 'Caller: my name is john smith', 'Agent: and your social security number', 'Caller: it is one two three four five six seven eight nine'].join('\n');
const SEEDED = ['john', 'smith', 'one two three', 'four five six', 'seven eight nine', '123', '456789'];
const holds = (text: string, value: string) => new RegExp(`(?<![0-9a-z])${value}(?![0-9a-z])`, 'i').test(text);

interface Hit {
  headers: http.IncomingHttpHeaders;
  body: string;
}

for (const dialect of await dialects()) {
  describe(`notification contents and signing secrets (${dialect})`, () => {
    let svc: TestService;
    let url: string;
    const hits: Hit[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        hits.push({ headers: req.headers, body });
        res.end();
      });
    });
    before(async () => {
      url = await new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`)));
      svc = await startTestService(dialect, { env: LOOPBACK_ALLOW });
      const project = { sid: 'rotating', name: 'Rotating', active: true, scrubtext: false, rules: [] };
      assert.equal((await svc.request({ method: 'POST', url: '/system/cache/v2/publish', payload: { data: JSON.stringify(project) } })).statusCode, 200);
    });
    after(async () => {
      await svc.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    /** Submit a text job notifying the receiver; the delivery it got. */
    async function delivered(payload: Record<string, unknown>): Promise<Hit> {
      const res = await svc.request({ method: 'POST', url: '/asr/transcribe', payload: { text: CALL, ...payload } });
      assert.equal(res.statusCode, 202, res.body);
      const jobId = json(res).jobId as string;
      return until(() => hits.find((h) => JSON.parse(h.body).processJob?.jobId === jobId), `the notification of job ${jobId}`);
    }

    test('contents puts the redacted transcript in the payload, in each shape asked', async () => {
      const hit = await delivered({ scrubtext: true, notification: { url, contents: ['transcript', 'transcript.txt', 'transcript.srt'] } });
      const payload = JSON.parse(hit.body);
      assert.equal(payload.transcripts.transcript.format, '2.9');
      assert.ok(payload.transcripts.transcript.results.length > 10);
      assert.equal(typeof payload.transcripts['transcript.txt'], 'string');
      assert.match(payload.transcripts['transcript.srt'], /-->/);
      for (const value of SEEDED) assert.ok(!holds(hit.body, value), `"${value}" is in the notification`);
      assert.match(payload.transcripts['transcript.txt'], /security number/, 'the words that were not redacted are there');
    });

    test('without contents, no transcript; an unknown content is refused at submit', async () => {
      const hit = await delivered({ notification: { url } });
      assert.equal(JSON.parse(hit.body).transcripts, undefined);
      const bad = await svc.request({ method: 'POST', url: '/asr/transcribe', payload: { text: CALL, notification: { url, contents: ['transcript.docx'] } } });
      assert.equal(bad.statusCode, 400, bad.body);
    });

    test("a project's own secrets sign its notifications; during a rotation both sign", async () => {
      const service = loadWebhookSecret(svc.services.config.dataDir, svc.services.config.webhookSecret);
      const [oldSecret, newSecret] = [generateSecret(), generateSecret()];
      const set = (value: unknown) => svc.request({ method: 'POST', url: '/system/set-parameter', payload: { name: 'webhookSecrets', value, sid: 'rotating' } });
      const verifies = (secret: string, hit: Hit) => verifySignature(secret, hit.headers, hit.body);

      let res = await set([oldSecret]);
      assert.equal(res.statusCode, 200, res.body);
      assert.ok(!res.body.includes(oldSecret.slice(6, 30)), 'the secret is masked in the answer');
      let hit = await delivered({ sid: 'rotating', notification: { url } });
      assert.ok(verifies(oldSecret, hit));
      assert.ok(!verifies(service, hit), "not signed with the service's secret");

      assert.equal((await set([oldSecret, newSecret])).statusCode, 200);
      hit = await delivered({ sid: 'rotating', notification: { url } });
      assert.equal(String(hit.headers['webhook-signature']).split(' ').length, 2);
      assert.ok(verifies(oldSecret, hit) && verifies(newSecret, hit), 'either secret verifies during the rollover');

      assert.equal((await set([newSecret])).statusCode, 200);
      hit = await delivered({ sid: 'rotating', notification: { url } });
      assert.ok(verifies(newSecret, hit) && !verifies(oldSecret, hit), 'the old secret no longer verifies');

      // Jobs of other projects keep the service's secret.
      hit = await delivered({ notification: { url } });
      assert.ok(verifies(service, hit));

      for (const bad of [['not-a-secret'], [], [newSecret, oldSecret, generateSecret()], ['whsec_c2hvcnQ=']]) {
        res = await set(bad);
        assert.equal(res.statusCode, 400, `${JSON.stringify(bad)}: ${res.body}`);
      }
      const stored = await svc.services.store.parameters.get('rotating', 'webhookSecrets');
      assert.ok(!JSON.stringify(stored).includes(newSecret.slice(6, 30)), 'sealed at rest');
    });
  });
}
