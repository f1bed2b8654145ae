// kill -9 of the service while a job is being recognized, then a restart: the job completes, and its
// notification arrives once (at most twice, with one delivery id).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hasTool, speak, tempDir } from '../helpers/audio.js';
import { startServerProcess, type ServerProcess } from '../helpers/cli.js';
import { s3Mode, testS3 } from '../helpers/s3.js';
import { testDatabase, type TestDatabase } from '../helpers/harness.js';
import { multipart } from '../helpers/multipart.js';
import { until } from '../helpers/poll.js';
import { required } from '../helpers/require.js';

// Receivers here are on 127.0.0.1, which notifications may reach only when allowed (test/notifications/ssrf.test.ts).
const LOOPBACK_ALLOW = { SCRUBLINE_WEBHOOK_ALLOW: '127.0.0.0/8' };

const canRun = hasTool('ffmpeg') && hasTool('espeak-ng') && fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us');

const PARAGRAPH =
  'thank you for calling the support line my name is alex and i will be helping you today ' +
  'can you tell me the reason for your call i see that your last payment was received on the fourth ' +
  'of the month and the balance on the account is now one hundred and twenty dollars ';

describe('crash recovery', { skip: required(!canRun && 'needs ffmpeg, espeak-ng and PocketSphinx') }, () => {
  let db: TestDatabase;
  let dir: string;
  let recording: string;
  const hits: { id: string; body: string }[] = [];
  let hookServer: http.Server;
  let hookUrl: string;
  let server: ServerProcess | undefined;
  // A short lease: the killed process's job is taken over once it runs out (database clock), not after 30 s.
  // SCRUBLINE_BLOB_STORE=s3: the killed process's recording is in a bucket, as every file of the run.
  let blobEnv: Record<string, string> = {};
  const env = () => ({ ...db.env, ...blobEnv, SCRUBLINE_WEBHOOK_RETRY_MS: '100,200,400', SCRUBLINE_SECRET_KEY: 'crash-test', SCRUBLINE_JOB_LEASE_MS: '4000', ...LOOPBACK_ALLOW });

  before(async () => {
    db = await testDatabase('sqlite');
    if (s3Mode()) {
      const s3 = await testS3();
      blobEnv = s3.env(await s3.bucket('crash'));
    }
    dir = tempDir();
    // Half a minute of speech: long enough to be caught mid-recognition.
    recording = speak(PARAGRAPH.repeat(2), path.join(dir, 'long-call.wav'));
    hookServer = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        hits.push({ id: String(req.headers['webhook-id']), body });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => hookServer.listen(0, '127.0.0.1', () => r()));
    hookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}/hook`;
  });
  after(async () => {
    await server?.stop('SIGKILL');
    await new Promise<void>((r) => hookServer.close(() => r()));
    await db.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the job completes after a restart and is notified once', async () => {
    server = await startServerProcess(env());
    const form = multipart({ 'notification.url': hookUrl }, [{ name: 'audio', filename: 'long-call.wav', content: fs.readFileSync(recording) }]);
    const submitted = await fetch(`${server.url}/asr/transcribe`, { method: 'POST', headers: form.headers, body: form.payload });
    assert.equal(submitted.status, 202, await submitted.clone().text());
    const { jobId } = (await submitted.json()) as { jobId: string };

    // Wait until recognition is under way (state; the bound is a backstop), then kill the process outright.
    await until(async () => {
      const { status } = (await (await fetch(`${server!.url}/asr/jobs/${jobId}`)).json()) as { status: string };
      assert.notEqual(status, 'completed', 'the job finished before it could be interrupted; make the recording longer');
      assert.ok(['queued', 'processing'].includes(status), status);
      return status === 'processing';
    }, 'recognition under way');
    assert.equal(await server.stop('SIGKILL'), null);
    assert.equal(hits.length, 0, 'nothing was notified before the kill');

    server = await startServerProcess(env());
    const done = (await (await fetch(`${server.url}/asr/jobs/${jobId}?wait=300`)).json()) as { status: string; attempts: number; vendorATranscript?: { utterances: unknown[] } };
    assert.equal(done.status, 'completed');
    assert.equal(done.attempts, 2, 'claimed once before the kill and once after');
    assert.ok((done.vendorATranscript?.utterances.length ?? 0) > 0);
    assert.match(server.output(), /took over a job whose lease ran out/);

    // Until the job's record says its notification was delivered (state), then count what the receiver got.
    type Delivery = { status: string; attempts: number };
    const deliveries = await until(async () => {
      const found = ((await (await fetch(`${server!.url}/asr/jobs/${jobId}`)).json()) as { notifications?: Delivery[] }).notifications ?? [];
      return found.length > 0 && found.every((d) => d.status === 'delivered') ? found : undefined;
    }, 'the notification delivered');
    assert.equal(deliveries.length, 1, 'one delivery');
    assert.ok(hits.length >= 1 && hits.length <= 2, `notified ${hits.length} times`);
    assert.equal(hits.length, deliveries[0].attempts, 'every send reached the receiver and is in the record');
    assert.equal(new Set(hits.map((h) => h.id)).size, 1, 'one delivery id');
    assert.equal(JSON.parse(hits[0].body).jobId, jobId);
  });
});
