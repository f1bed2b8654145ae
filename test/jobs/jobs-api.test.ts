// Jobs through the API: text and audio submissions, states and events, wait, list, cancel, resubmit,
// delete, and clear refusals of bad input, on both stores.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';
import { multipart } from '../helpers/multipart.js';
import { required } from '../helpers/require.js';

const TEXT = 'Agent: thank you for calling acme how can i help\nCaller: hi my card was charged twice\nAgent: let me look into that';

for (const dialect of await dialects()) {
  describe(`jobs API (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService(dialect, { env: { SCRUBLINE_MAX_UPLOAD_BYTES: String(200 * 1024) } });
      await svc.services.worker.start();
    });
    after(() => svc.close());

    const submit = (payload: object, query = '') => svc.request({ method: 'POST', url: `/asr/transcribe${query}`, payload });

    test('a text transcript becomes a completed job; wait answers 200 with it', async () => {
      const res = await submit({ text: TEXT, tracking_id: 'ref-1', priority: 'high', notification: { url: 'https://hooks.example.com/x', auth_headers: ['Authorization: Bearer abcdefghijklmnop'] } }, '?wait=300');
      assert.equal(res.statusCode, 200, res.body);
      const job = json(res);
      assert.equal(job.status, 'completed');
      assert.equal(res.headers.location, `/asr/jobs/${job.jobId}`);
      assert.equal(job.jobType, 'text');
      assert.equal(job.priority, 'high');
      assert.equal(job.request.tracking_id, 'ref-1');
      assert.equal(job.request.notification.auth_headers[0], 'Authorization: ****mnop');
      assert.equal(job.doWebhook, true);
      assert.equal(job.redactionStatus, 'not_requested');
      const events = json(await svc.request({ method: 'GET', url: `/system/events?subject=${job.jobId}` })).events.map((e: { subType: string }) => e.subType);
      assert.deepEqual(events.reverse(), ['queued', 'started', 'transcribed', 'completed']);
    });

    test('without wait the answer is 202 and the job is read at its location', async () => {
      const res = await submit({ text: 'hello there' });
      assert.equal(res.statusCode, 202, res.body);
      assert.ok(['queued', 'processing', 'completed'].includes(json(res).status));
      const done = json(await svc.request({ method: 'GET', url: `${res.headers.location}?wait=300` }));
      assert.equal(done.status, 'completed');
      const list = json(await svc.request({ method: 'GET', url: '/asr/jobs?status=completed' }));
      assert.ok(list.jobs.some((j: { jobId: string }) => j.jobId === done.jobId));
    });

    test('resubmitting a finished job runs it again with the new parameters', async () => {
      const first = json(await submit({ text: 'one two three' }, '?wait=300'));
      const again = await submit({ jobId: first.jobId, tracking_id: 'second-run', wait: 20 });
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(json(again).jobId, first.jobId);
      assert.equal(json(again).request.tracking_id, 'second-run');
      assert.equal(json(again).status, 'completed');
      const events = json(await svc.request({ method: 'GET', url: `/system/events?subject=${first.jobId}` })).events;
      assert.equal(events.filter((e: { subType: string }) => e.subType === 'completed').length, 2);
      assert.equal((await submit({ jobId: 'no-such-job' })).statusCode, 404);
    });

    test('cancel and delete', async () => {
      await svc.services.worker.stop();
      try {
        const queued = json(await submit({ text: 'wait in line' }));
        const cancelled = await svc.request({ method: 'POST', url: `/asr/jobs/${queued.jobId}/cancel` });
        assert.equal(cancelled.statusCode, 200);
        assert.equal(json(cancelled).status, 'cancelled');
        assert.equal((await svc.request({ method: 'POST', url: `/asr/jobs/${queued.jobId}/cancel` })).statusCode, 409);
        assert.equal((await svc.request({ method: 'DELETE', url: `/asr/jobs/${queued.jobId}` })).statusCode, 204);
        assert.equal((await svc.request({ method: 'GET', url: `/asr/jobs/${queued.jobId}` })).statusCode, 404);
      } finally {
        await svc.services.worker.start();
      }
    });

    test('bad requests are refused with the field named', async () => {
      const cases: [object, string, number][] = [
        [{}, '/text', 400],
        [{ text: 'x', priority: 'urgent' }, '/priority', 400],
        [{ text: 'x', uttmaxsilence: 'long' }, '/uttmaxsilence', 400],
        [{ text: 'x', notification: { url: 5 } }, '/notification/url', 400],
      ];
      for (const [payload, pointer, status] of cases) {
        const res = await submit(payload);
        assert.equal(res.statusCode, status, res.body);
        assert.ok(json(res).errors?.some((e: { pointer: string }) => e.pointer === pointer), `${pointer}: ${res.body}`);
      }
      const model = await svc.request({ method: 'POST', url: '/asr/transcribe?model=xx-yy:nothing', ...multipart({}, [{ name: 'audio', filename: 'a.wav', content: Buffer.from('RIFF') }]) });
      assert.equal(model.statusCode, 400, model.body);
      assert.match(json(model).detail, /not installed/);
    });

    test('uploads that are not usable audio are refused and leave nothing behind', async (t) => {
      const installed = json(await svc.request({ method: 'GET', url: '/asr/models' })).models.some((m: { installed: boolean }) => m.installed);
      const upload = (content: Buffer, filename = 'call.wav') =>
        svc.request({ method: 'POST', url: '/asr/transcribe', ...multipart({}, [{ name: 'audio', filename, content }]) });
      if (!installed) {
        // Without a model only that answer can be checked: a skip here, a failure where the run requires models.
        assert.equal((await upload(Buffer.from('x'))).statusCode, 503, 'no model installed');
        t.skip(required('no speech model is installed (only the 503 was checked)') || undefined);
        return;
      }
      const empty = await upload(Buffer.alloc(0));
      assert.equal(empty.statusCode, 422, empty.body);
      assert.equal(json(empty).reason, 'empty');
      const text = await upload(Buffer.from('this is not audio at all, just words in a file\n'.repeat(20)));
      assert.equal(text.statusCode, 422, text.body);
      const huge = await upload(Buffer.alloc(300 * 1024, 1));
      assert.equal(huge.statusCode, 413, huge.body);
      const tmp = path.join(svc.database.dataDir, 'tmp');
      assert.deepEqual(fs.existsSync(tmp) ? fs.readdirSync(tmp) : [], [], 'no temporary upload is left');
      assert.equal((await svc.request({ method: 'GET', url: '/health' })).statusCode, 200);
    });
  });
}
