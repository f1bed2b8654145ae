// Digit look-alikes through the service (security review, issue 36): a text job, its notification and a post-call
// record holding numbers typed with letters for digits ("4532О1511283О366" with a Cyrillic О, "S36-22-8741",
// "5362287I4I") keep none of them in any output, stored row, notification, event or log line.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';
import { until } from '../helpers/poll.js';

const KINDS = ['CreditCardNumber', 'USSocialSecurityNumber'];
const TEXT = [
  'Agent: what card will you use',
  'Caller: my card is 4532\u041E1511283\u041E366',
  'Caller: or the other one 4532O151l283O366',
  'Agent: and your social',
  'Caller: it is S36-22-8741 or as I typed 5362287I4I',
].join('\n');
// Lower case (outputs are compared lower-cased), each long enough not to occur by chance.
const NEEDLES = ['4532\u043E151', '1283\u043E366', '4532o151', 'l283o366', 's36-22', '22-8741', '5362287i4i', '4532015112830366', '536-22-8741', '536228741'];

function assertClean(where: string, text: string): void {
  const lower = text.toLowerCase();
  const found = NEEDLES.filter((n) => lower.includes(n));
  assert.deepEqual(found, [], `${where} keeps ${found.join(', ')}`);
}

for (const dialect of await dialects()) {
  describe(`digit look-alikes through the service (${dialect})`, () => {
    let svc: TestService;
    const logLines: string[] = [];
    const bodies: string[] = [];
    let server: http.Server;
    let hookUrl = '';
    before(async () => {
      svc = await startTestService(dialect, { logLines, logLevel: 'trace', env: { SCRUBLINE_WEBHOOK_ALLOW: '127.0.0.0/8' } });
      server = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          bodies.push(body);
          res.end();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    });
    after(async () => {
      await new Promise((resolve) => server.close(resolve));
      await svc.close();
    });

    const rows = async () => {
      const db = svc.services.store.database.db as any;
      const parts: string[] = [];
      for (const table of ['jobs', 'job_results', 'events', 'deliveries', 'conversations', 'live_messages']) parts.push(JSON.stringify(await db.selectFrom(table).selectAll().execute()));
      return parts.join('\n');
    };

    test('a text job: every transcript format, the job, its events, its notification and the stored rows', async () => {
      const res = await svc.request({ method: 'POST', url: '/asr/transcribe?wait=300', payload: { text: TEXT, types: KINDS, notification: { url: hookUrl } } });
      assert.equal(res.statusCode, 200, res.body);
      const job = json(res);
      assert.equal(job.status, 'completed', job.message);
      assertClean('job', res.body);
      for (const format of ['vendorA', 'vendorB', 'transcript', 'utterances', 'text', 'srt', 'vtt']) {
        for (const redacted of ['true', 'false']) {
          const out = await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/transcript?format=${format}&redacted=${redacted}` });
          assert.ok(out.statusCode < 500, `${format}: ${out.statusCode}`);
          assertClean(`${format} redacted=${redacted}`, out.body);
        }
      }
      assertClean('events', (await svc.request({ method: 'GET', url: `/system/events?subject=${job.jobId}` })).body);
      await until(() => bodies.length >= 1, 'the notification');
      for (const body of bodies) assertClean('notification', body);
      assertClean('stored rows', await rows());
    });

    test('a post-call record: the answer, the record read back and the stored rows', async () => {
      const utterances = TEXT.split('\n').map((text, i) => ({ speaker: text.startsWith('Agent') ? 0 : 1, start: i * 3, end: i * 3 + 2, text }));
      const res = await svc.request({ method: 'POST', url: '/cache/post-call', payload: { eventId: 'look-alike-1', redactionRequest: { types: KINDS }, utterances } });
      assert.ok(res.statusCode < 300, res.body);
      assertClean('answer', res.body);
      assertClean('read back', (await svc.request({ method: 'GET', url: '/cache/post-call/look-alike-1' })).body);
      assertClean('stored rows', await rows());
    });

    test('no log line holds one', () => assertClean('logs', logLines.join('\n')));
  });
}
