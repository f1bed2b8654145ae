// Jobs from and to a bucket in one service (its own files in a bucket too), against s3rver on loopback: a bucket
// out of reach makes the job wait and try again, with the reason on it (never a client error), and it runs once
// the bucket answers; a presigned URL is fetched through the address policy and its signature shown nowhere;
// credentials given with the job, in the settings or to the store appear in no response and no log line
// (LOG_LEVEL=trace). The recognizer is injected (the bucket is under test, not the engine); ffprobe checks the
// fetched recording as it checks an upload.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { textToTranscript } from '../../src/jobs/textTranscript.js';
import { ffmpeg, hasTool, tempDir } from '../helpers/audio.js';
import { freePort } from '../helpers/cli.js';
import { dialects, startTestService, type TestService } from '../helpers/harness.js';
import { until } from '../helpers/poll.js';
import { required } from '../helpers/require.js';
import { type TestS3, testS3 } from '../helpers/s3.js';

const SAID = 'my social security number is 123-45-6789 thank you';

for (const dialect of await dialects()) {
  describe(`jobs from a bucket, waiting for it (${dialect})`, { skip: required(!hasTool('ffmpeg') && 'needs ffmpeg') }, () => {
    let s3: TestS3;
    let svc: TestService;
    let calls: string;
    const lines: string[] = [];
    const bodies: string[] = [];
    const secrets: string[] = [];
    const secret = (name: string) => {
      const value = `${name}-${crypto.randomBytes(12).toString('hex')}`;
      secrets.push(value);
      return value;
    };

    async function call(method: 'GET' | 'POST', url: string, payload?: object) {
      const res = await svc.request({ method, url, ...(payload && { payload }) });
      bodies.push(res.body);
      return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined };
    }

    before(async () => {
      s3 = await testS3();
      secrets.push(s3.secretAccessKey);
      calls = await s3.bucket('calls');
      const file = path.join(tempDir(), 'call.wav');
      ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=400:duration=2', '-ar', '8000', '-ac', '1', file]);
      const inbox = s3.store(calls);
      await inbox.putFile('in/call.wav', file);
      inbox.destroy();
      svc = await startTestService(dialect, {
        env: { ...s3.env(await s3.bucket('store')), SCRUBLINE_STORAGE_RETRY_MS: '300', SCRUBLINE_WEBHOOK_ALLOW: '127.0.0.0/8', LOG_LEVEL: 'trace' },
        logLines: lines,
        logLevel: 'trace',
        overrides: { recognize: async () => ({ ...textToTranscript(SAID, 'en-us:test', 0), engine: 'test' }) },
      });
    });
    after(() => svc?.close());

    const settings = (endpoint: string, secretKeyCloud: string) =>
      call('POST', '/system/set-parameter', { name: 'systemSettings', value: { endpoint, region: s3.region, apiKeyCloud: s3.accessKeyId, secretKeyCloud } });

    test('an unreachable bucket: the job waits with the reason, its attempts not spent, and runs once the bucket answers', async () => {
      const closed = await freePort();
      assert.equal((await settings(`http://127.0.0.1:${closed}`, secret('settings'))).status, 200);
      const submitted = await call('POST', '/asr/transcribe', { cloudStoragePath: `s3://${calls}/in/call.wav`, transcriptOutput: `${calls}/out/`, types: ['USSocialSecurityNumber'] });
      assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
      const { jobId } = submitted.body;
      const waiting = await until(async () => {
        const row = await svc.services.store.jobs.get(jobId);
        return row?.last_error && row.status === 'queued' ? row : undefined;
      }, 'the job to wait for its bucket');
      assert.match(waiting.last_error!, /could not be reached/);
      const events = await svc.services.store.database.db.selectFrom('events').select('sub_type').where('subject', '=', jobId).execute();
      assert.ok(events.some((e) => e.sub_type === 'waiting_for_storage'), 'a waiting_for_storage event');
      // Back: the settings name the bucket's real address.
      assert.equal((await settings(s3.endpoint, secret('settings'))).status, 200);
      const done = await until(async () => {
        const row = await svc.services.store.jobs.get(jobId);
        return row && ['completed', 'failed'].includes(row.status) ? row : undefined;
      }, 'the job to run once the bucket answers');
      assert.equal(done.status, 'completed', done.last_error ?? '');
      assert.equal(done.attempts, 1, 'waiting for the bucket spent no attempt');
      const out = s3.store(calls);
      try {
        const keys = (await out.list(`out/${jobId}/`)).map((b) => b.key);
        assert.deepEqual(keys.sort(), [`out/${jobId}/job.json`, `out/${jobId}/transcript.transcript.json`, `out/${jobId}/transcript.vendorA.json`]);
        let text = '';
        for await (const c of await out.get(`out/${jobId}/transcript.vendorA.json`)) text += c;
        assert.ok(!text.includes('123-45-6789'), 'the transcript written back is redacted');
      } finally {
        out.destroy();
      }
    });

    test('a presigned URL is fetched by the worker; its signature is kept sealed; an internal address is refused at submit', async () => {
      const inbox = s3.store(calls);
      const url = await inbox.presignedUrl('in/call.wav', 600);
      inbox.destroy();
      const signature = new URL(url).searchParams.get('X-Amz-Signature')!;
      secrets.push(signature);
      const submitted = await call('POST', '/asr/transcribe', { cloudStoragePath: url });
      assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
      const done = await until(async () => {
        const row = await svc.services.store.jobs.get(submitted.body.jobId);
        return row && ['completed', 'failed'].includes(row.status) ? row : undefined;
      }, 'the job from a URL');
      assert.equal(done.status, 'completed', done.last_error ?? '');
      assert.ok(!done.params.includes(signature), 'the stored params hold the URL sealed');
      const metadata = await call('POST', '/asr/transcribe', { cloudStoragePath: 'http://169.254.169.254/latest/meta-data/x.wav' });
      assert.equal(metadata.status, 400, JSON.stringify(metadata.body));
      const notAPath = await call('POST', '/asr/transcribe', { cloudStoragePath: 's3://Bad_Bucket/x.wav' });
      assert.equal(notAPath.status, 400);
    });

    test("credentials given with the job reach the bucket and are answered masked", async () => {
      const own = secret('job');
      const submitted = await call('POST', '/asr/transcribe', { cloudStoragePath: `${calls}/in/call.wav`, apiKeyCloud: s3.accessKeyId, secretKeyCloud: own, wait: 120 });
      assert.ok([200, 202].includes(submitted.status), JSON.stringify(submitted.body));
      const job = await call('GET', `/asr/jobs/${submitted.body.jobId}?wait=120`);
      assert.equal(job.body.status, 'completed', JSON.stringify(job.body));
    });

    test('a transcript in a bucket (transcriptInput) is read by the worker and runs as a text job, redacted; bad ones fail or are refused', async () => {
      const inbox = s3.store(calls);
      await inbox.put('in/chat.txt', 'hello, my social security number is 123-45-6789, thanks');
      await inbox.put('in/latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0xff]));
      inbox.destroy();
      const settle = (jobId: string) =>
        until(async () => {
          const row = await svc.services.store.jobs.get(jobId);
          return row && ['completed', 'failed'].includes(row.status) ? row : undefined;
        }, 'the text job from a bucket');
      const submitted = await call('POST', '/asr/transcribe', { transcriptInput: `s3://${calls}/in/chat.txt`, types: ['USSocialSecurityNumber'], transcriptOutput: `${calls}/text-out/` });
      assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
      const done = await settle(submitted.body.jobId);
      assert.equal(done.status, 'completed', done.last_error ?? '');
      assert.equal(done.input_kind, 'text');
      assert.equal(done.file_name, 'chat.txt');
      assert.ok(!done.params.includes('123-45-6789'), 'the text is not in the job row');
      const text = await svc.request({ method: 'GET', url: `/asr/jobs/${submitted.body.jobId}/transcript?format=text` });
      bodies.push(text.body);
      assert.match(text.body, /social security number is/i);
      assert.ok(!text.body.includes('123-45-6789') && !text.body.includes('6789'), text.body);
      const out = s3.store(calls);
      try {
        let written = '';
        for await (const c of await out.get(`text-out/${submitted.body.jobId}/transcript.vendorA.json`)) written += c;
        assert.ok(written.includes('social') && !written.includes('6789'), 'the results written back are redacted');
      } finally {
        out.destroy();
      }
      // Not there, not UTF-8: the job fails with the reason. Beside text, or naming a folder: refused at submit.
      for (const [key, reason] of [['in/none.txt', /not in the bucket/], ['in/latin1.txt', /not UTF-8/]] as const) {
        const bad = await call('POST', '/asr/transcribe', { transcriptInput: `${calls}/${key}` });
        assert.equal(bad.status, 202, JSON.stringify(bad.body));
        const failed = await settle(bad.body.jobId);
        assert.equal(failed.status, 'failed');
        assert.match(failed.last_error ?? '', reason);
      }
      const both = await call('POST', '/asr/transcribe', { transcriptInput: `${calls}/in/chat.txt`, text: 'hello' });
      assert.equal(both.status, 400, JSON.stringify(both.body));
      assert.match(JSON.stringify(both.body), /transcriptInput/);
      const folder = await call('POST', '/asr/transcribe', { transcriptInput: `s3://${calls}/in/` });
      assert.equal(folder.status, 400, JSON.stringify(folder.body));
    });

    test('no bucket credential in any response or log line', () => {
      assert.ok(lines.length > 0, 'the service logged');
      for (const value of secrets) {
        for (const body of bodies) assert.ok(!body.includes(value), `a response holds ${value.slice(0, 8)}...`);
        for (const line of lines) assert.ok(!line.includes(value), `a log line holds ${value.slice(0, 8)}...: ${line.slice(0, 200)}`);
      }
    });
  });
}
