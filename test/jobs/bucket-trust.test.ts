// Issue 36, findings 1 and 4 and the bucket items, through the API of a service that keeps its own files in a
// bucket (SCRUBLINE_BLOB_STORE=s3), against s3rver on loopback, with a trap web server standing for an internal
// service. The operator allows the s3rver's port (and one closed port, for the bounded waits) and nothing else:
// - the service's own bucket is no job's source or target, whatever credentials the job or the settings bring;
// - the service's own credentials never serve a request's bucket: no credentials is a 400;
// - endpoints (job, systemSettings, project parameters) go through the outbound target policy: every loopback
//   spelling, metadata, private and internal names are a 400, and the trap hears nothing;
// - an endpoint with userinfo is refused (never stored in clear);
// - a client's bucket out of reach is waited for a bounded number of times, then the job fails with the reason;
// - deleting a job whose results bucket refuses (403) or is out of reach succeeds for the service's own data and
//   reports what was left, in an event; the job's record says where its results went.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
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
  describe(`bucket trust rules (${dialect})`, { skip: required(!hasTool('ffmpeg') && 'needs ffmpeg') }, () => {
    let s3: TestS3;
    let svc: TestService;
    let storeBucket: string;
    let calls: string;
    let closed: number;
    let trap: http.Server;
    let trapPort: number;
    const heard: string[] = [];
    const jobSecret = `job-secret-${crypto.randomBytes(12).toString('hex')}`;

    async function call(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) {
      const res = await svc.request({ method, url, ...(payload && { payload }) });
      return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined, text: res.body };
    }
    const settings = (value: Record<string, string>) => call('POST', '/system/set-parameter', { name: 'systemSettings', value });
    const goodSettings = () => settings({ endpoint: s3.endpoint, region: s3.region, apiKeyCloud: s3.accessKeyId, secretKeyCloud: s3.secretAccessKey });
    const settle = (jobId: string) =>
      until(async () => {
        const row = await svc.services.store.jobs.get(jobId);
        return row && ['completed', 'failed'].includes(row.status) ? row : undefined;
      }, 'the job to end');
    const events = (jobId: string) => svc.services.store.database.db.selectFrom('events').select(['sub_type', 'record']).where('subject', '=', jobId).execute();

    before(async () => {
      s3 = await testS3();
      storeBucket = await s3.bucket('store');
      calls = await s3.bucket('calls');
      closed = await freePort();
      const file = path.join(tempDir(), 'call.wav');
      ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=400:duration=2', '-ar', '8000', '-ac', '1', file]);
      const inbox = s3.store(calls);
      await inbox.putFile('in/call.wav', file);
      inbox.destroy();
      // What the service keeps: an unredacted original and a queued text input, as its own uploads.
      const own = s3.store(storeBucket);
      await own.putFile('uploads/0b7c1c52-1111-4222-8333-944455556666/original.wav', file);
      await own.put('jobs/0b7c1c52-1111-4222-8333-944455556666/input.txt', SAID);
      own.destroy();
      trap = http.createServer((req, res) => {
        heard.push(`${req.method} ${req.url}`);
        res.writeHead(200).end('internal');
      });
      await new Promise<void>((r) => trap.listen(0, '127.0.0.1', r));
      trapPort = (trap.address() as net.AddressInfo).port;
      svc = await startTestService(dialect, {
        env: {
          ...s3.env(storeBucket),
          SCRUBLINE_STORAGE_RETRY_MS: '200',
          SCRUBLINE_BUCKET_MAX_WAITS: '2',
          // What an operator with a private S3 service does: allow it (here, and one closed port); nothing else.
          SCRUBLINE_WEBHOOK_ALLOW: `${new URL(s3.endpoint).host},127.0.0.1:${closed}`,
        },
        overrides: { recognize: async () => ({ ...textToTranscript(SAID, 'en-us:test', 0), engine: 'test' }) },
      });
    });
    after(async () => {
      await svc?.close();
      trap?.close();
    });

    test("the service's own bucket is no job's source or target, whatever credentials come with it", async () => {
      const original = `${storeBucket}/uploads/0b7c1c52-1111-4222-8333-944455556666/original.wav`;
      const cases: [string, object][] = [
        ['no credentials (once read with the service\'s own)', { cloudStoragePath: original }],
        ['s3:// form', { cloudStoragePath: `s3://${original}` }],
        ['credentials of the job', { cloudStoragePath: original, apiKeyCloud: s3.accessKeyId, secretKeyCloud: jobSecret }],
        ['every stored recording as a batch', { cloudStorageFolder: `${storeBucket}/uploads/` }],
        ['queued text', { transcriptInput: `${storeBucket}/jobs/0b7c1c52-1111-4222-8333-944455556666/input.txt` }],
        ['results written into it', { cloudStoragePath: `${calls}/in/call.wav`, transcriptOutput: `${storeBucket}/uploads/`, apiKeyCloud: s3.accessKeyId, secretKeyCloud: jobSecret }],
      ];
      for (const withSettings of [false, true]) {
        // The administrator's settings (valid credentials for the S3 service) do not open it either.
        if (withSettings) assert.equal((await goodSettings()).status, 200);
        else assert.equal((await settings({ endpoint: s3.endpoint, region: s3.region })).status, 200);
        for (const [label, payload] of cases) {
          const res = await call('POST', '/asr/transcribe', payload);
          assert.equal(res.status, 400, `${label} (settings ${withSettings}): ${res.text}`);
          assert.match(res.text, /service's own storage bucket/, label);
        }
      }
    });

    test("a client's bucket is never read with the service's own credentials: none is a 400", async () => {
      assert.equal((await call('POST', '/system/set-parameter', { name: 'apiKeyCloud', value: '' })).status, 200);
      assert.equal((await call('POST', '/system/set-parameter', { name: 'secretKeyCloud', value: '' })).status, 200);
      assert.equal((await call('POST', '/system/set-parameter', { name: 'endpoint', value: s3.endpoint })).status, 200);
      for (const payload of [{ cloudStoragePath: `${calls}/in/call.wav` }, { cloudStorageFolder: `${calls}/in/` }, { transcriptInput: `${calls}/in/chat.txt` }]) {
        const res = await call('POST', '/asr/transcribe', payload);
        assert.equal(res.status, 400, `${JSON.stringify(payload)}: ${res.text}`);
        assert.match(res.text, /apiKeyCloud/);
      }
    });

    test('endpoints go through the outbound target policy: loopback spellings, metadata, private and internal names are refused; the trap hears nothing', async () => {
      heard.length = 0;
      const hostile = [
        `http://127.1:${trapPort}`,
        `http://2130706433:${trapPort}`,
        `http://0x7f000001:${trapPort}`,
        `http://[::ffff:127.0.0.1]:${trapPort}`,
        `http://[::1]:${trapPort}`,
        `http://localhost:${trapPort}`,
        'http://169.254.169.254/',
        'http://[fd00:ec2::254]/',
        'http://10.0.0.5:9000/',
        'http://192.168.1.10/',
        'http://metadata.google.internal/',
        'http://minio.svc/',
      ];
      const messages = new Set<string>();
      for (const endpoint of hostile) {
        // With the job's own credentials (a folder is listed by the API at submit, a recording read by the worker).
        for (const payload of [
          { cloudStorageFolder: `${calls}/in/`, endpoint, apiKeyCloud: 'AKIAJOB', secretKeyCloud: jobSecret },
          { cloudStoragePath: `${calls}/in/call.wav`, endpoint, apiKeyCloud: 'AKIAJOB', secretKeyCloud: jobSecret },
        ]) {
          const res = await call('POST', '/asr/transcribe', payload);
          assert.equal(res.status, 400, `${endpoint}: ${res.text}`);
          assert.equal(res.body.errors?.[0]?.pointer ?? res.body.issues?.[0]?.pointer ?? '/endpoint', '/endpoint', res.text);
          assert.match(res.text, /endpoint/);
          messages.add(res.body.detail ?? res.body.message ?? res.text);
        }
        // Nor in the settings an administrator sets (system, or a project's).
        const system = await settings({ endpoint, region: s3.region, apiKeyCloud: 'AKIAADMIN', secretKeyCloud: 'admin-secret' });
        assert.equal(system.status, 400, `systemSettings ${endpoint}: ${system.text}`);
        const project = await call('POST', '/system/set-parameter', { name: 'endpoint', value: endpoint, sid: 'tenant-a' });
        assert.equal(project.status, 400, `project endpoint ${endpoint}: ${project.text}`);
      }
      assert.ok(![...messages].some((m) => m.includes(String(trapPort))), 'no message names the port');
      assert.deepEqual(heard, [], 'nothing reached the trap');
    });

    test("the settings' credentials go only to the settings' endpoint; an endpoint with a user name or password is refused, never stored", async () => {
      assert.equal((await goodSettings()).status, 200);
      // A job naming an endpoint of its own (allowed, here the closed port) without credentials of its own.
      const borrowed = await call('POST', '/asr/transcribe', { cloudStoragePath: `${calls}/in/call.wav`, endpoint: `http://127.0.0.1:${closed}` });
      assert.equal(borrowed.status, 400, borrowed.text);
      assert.match(borrowed.text, /settings' credentials go only to the settings' endpoint/);
      const password = `pw-${crypto.randomBytes(8).toString('hex')}`;
      const userinfo = new URL(s3.endpoint);
      userinfo.username = 'admin';
      userinfo.password = password;
      const res = await call('POST', '/asr/transcribe', { cloudStoragePath: `${calls}/in/call.wav`, endpoint: userinfo.toString(), apiKeyCloud: s3.accessKeyId, secretKeyCloud: jobSecret });
      assert.equal(res.status, 400, res.text);
      assert.match(res.text, /must not carry a user name or password/);
      assert.ok(!res.text.includes(password));
      const system = await settings({ endpoint: userinfo.toString(), region: s3.region, apiKeyCloud: s3.accessKeyId, secretKeyCloud: s3.secretAccessKey });
      assert.equal(system.status, 400, system.text);
      const rows = await svc.services.store.database.db.selectFrom('jobs').select('params').execute();
      assert.ok(!rows.some((r) => r.params.includes(password)), 'no job row holds the password');
    });

    test("a client's bucket out of reach is waited for a bounded number of times, then the job fails with the reason", async () => {
      assert.equal((await settings({ endpoint: `http://127.0.0.1:${closed}`, region: s3.region, apiKeyCloud: s3.accessKeyId, secretKeyCloud: s3.secretAccessKey })).status, 200);
      const submitted = await call('POST', '/asr/transcribe', { cloudStoragePath: `${calls}/in/call.wav` });
      assert.equal(submitted.status, 202, submitted.text);
      const failed = await settle(submitted.body.jobId);
      assert.equal(failed.status, 'failed');
      assert.match(failed.last_error ?? '', /could not be reached, or did not answer as S3 storage/);
      assert.match(failed.last_error ?? '', /not tried again/);
      const waits = (await events(submitted.body.jobId)).filter((e) => e.sub_type === 'waiting_for_storage');
      assert.equal(waits.length, 2, 'SCRUBLINE_BUCKET_MAX_WAITS waits, then failed');
    });

    test('deleting a job whose results bucket refuses or is out of reach succeeds and reports what was left; the record says where results went', async () => {
      assert.equal((await goodSettings()).status, 200);
      const jobs: string[] = [];
      for (let i = 0; i < 3; i++) {
        const submitted = await call('POST', '/asr/transcribe', { cloudStoragePath: `${calls}/in/call.wav`, transcriptOutput: `${calls}/out/`, types: ['USSocialSecurityNumber'] });
        assert.equal(submitted.status, 202, submitted.text);
        const done = await settle(submitted.body.jobId);
        assert.equal(done.status, 'completed', done.last_error ?? '');
        jobs.push(done.id);
      }
      const out = s3.store(calls);
      try {
        const left = async (id: string) => (await out.list(`out/${id}/`)).length;
        // The results bucket refuses (an unknown key: 403), then is out of reach, then answers again.
        const cases: [string, Record<string, string>, boolean][] = [
          ['refused (403)', { endpoint: s3.endpoint, region: s3.region, apiKeyCloud: 'AKIAREVOKED', secretKeyCloud: 'revoked' }, false],
          ['out of reach', { endpoint: `http://127.0.0.1:${closed}`, region: s3.region, apiKeyCloud: s3.accessKeyId, secretKeyCloud: s3.secretAccessKey }, false],
          ['answering', { endpoint: s3.endpoint, region: s3.region, apiKeyCloud: s3.accessKeyId, secretKeyCloud: s3.secretAccessKey }, true],
        ];
        for (const [i, [label, value, removed]] of cases.entries()) {
          assert.equal((await settings(value)).status, 200);
          const id = jobs[i];
          if (removed) {
            // The record says where the results went: bucket and key prefix, no endpoint, no credentials.
            const record = await call('GET', `/asr/jobs/${id}`);
            assert.equal(record.body.resultsFolder, `s3://${calls}/out/${id}/`, record.text);
            assert.ok(!record.text.includes(s3.secretAccessKey) && !record.text.includes(s3.endpoint));
          }
          const res = await call('DELETE', `/asr/jobs/${id}`);
          assert.equal(res.status, 204, `${label}: ${res.text}`);
          assert.equal((await call('GET', `/asr/jobs/${id}`)).status, 404, `${label}: the job is gone`);
          assert.equal((await s3.store(storeBucket).list(`uploads/${id}/`)).length, 0, `${label}: the service's copy is gone`);
          await svc.services.jobs.settled();
          const trail = await events(id);
          if (removed) {
            assert.ok(trail.some((e) => e.sub_type === 'exported_removed'), `${label}: removal reported`);
            assert.equal(await left(id), 0, `${label}: the results are removed`);
          } else {
            const report = trail.find((e) => e.sub_type === 'exported_not_removed');
            assert.ok(report, `${label}: what was left is reported`);
            assert.match(report.record, new RegExp(`s3://${calls}/out/${id}/ was not removed`));
            assert.ok(!report.record.includes(s3.secretAccessKey) && !report.record.includes('revoked'));
            assert.ok((await left(id)) > 0, `${label}: the results are still there (the customer's to remove)`);
          }
        }
      } finally {
        out.destroy();
      }
    });
  });
}
