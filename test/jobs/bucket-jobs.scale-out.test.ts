// Issue 21, must-show 2. (Set aside in the 2026-11-25 session when the batch did not end within the 120 s poll
// bound on a machine at load ~28; it passes on this one in ~20 s, and its bound is now a hang guard of 10 minutes.)
// Recordings read from a bucket, results written back, on processes that share nothing but PostgreSQL and
// the bucket: one API process (no worker) and two worker processes, each with a data directory of its own.
// A folder of recordings becomes a batch; the API lists it, the workers fetch each recording, run it, and
// write its transcripts, its redacted audio and its job record under transcriptOutput. Nothing lands in a
// data directory; the bucket's credentials appear in no response and no log line. Real parts throughout:
// s3rver (an S3-protocol server on loopback) through @aws-sdk/client-s3, PostgreSQL, the CLI processes,
// festival, ffmpeg and PocketSphinx.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hasFestivalVoice, hasTool, speakFestival, tempDir } from '../helpers/audio.js';
import { type ServerProcess, startServerProcess, startWorkerProcess, type WorkerProcess } from '../helpers/cli.js';
import { postgresAvailable, testDatabase, type TestDatabase } from '../helpers/databases.js';
import { until } from '../helpers/poll.js';
import { required } from '../helpers/require.js';
import { type TestS3, testS3 } from '../helpers/s3.js';

const canRun = hasTool('ffmpeg') && hasFestivalVoice() && fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us');
const hasPostgres = await postgresAvailable();

/** Every file under a directory (empty folders are not files). */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((name) => fs.statSync(path.join(dir, name)).isFile());
}

describe('jobs from and to a bucket, scaled out', { skip: required((!canRun && 'needs ffmpeg, festival with the US HTS voice, and PocketSphinx') || (!hasPostgres && 'needs PostgreSQL')) }, () => {
  let s3: TestS3;
  let db: TestDatabase;
  let dir: string;
  let storeBucket: string;
  let calls: string;
  let api: ServerProcess;
  const workers: WorkerProcess[] = [];
  const dataDirs: string[] = [];
  const bodies: string[] = [];
  /** The systemSettings secret for the clients' bucket: distinct from the store's, hunted for in every output. */
  const settingsSecret = `settings-secret-${crypto.randomBytes(16).toString('hex')}`;

  async function call(method: string, url: string, body?: unknown): Promise<{ status: number; body: any }> {
    const res = await fetch(`${api.url}${url}`, { method, ...(body !== undefined && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
    const text = await res.text();
    bodies.push(text);
    return { status: res.status, body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
  }

  before(async () => {
    s3 = await testS3();
    db = await testDatabase('postgres');
    dir = tempDir();
    storeBucket = await s3.bucket('store');
    calls = await s3.bucket('calls');
    // A folder of recordings in the clients' bucket (and a file that is not one).
    const inbox = s3.store(calls);
    const lines = ['thank you for calling my name is alex', 'your balance is one hundred dollars', 'have a nice day and goodbye'];
    for (const [i, line] of lines.entries()) {
      const file = speakFestival(line, path.join(dir, `call-${i}.wav`));
      await inbox.putFile(`inbox/2026-11-25/call-${i}.wav`, file);
    }
    await inbox.put('inbox/2026-11-25/notes.txt', 'not a recording');
    inbox.destroy();
    const env = (name: string) => {
      const dataDir = path.join(dir, name);
      dataDirs.push(dataDir);
      return {
        ...db.env,
        ...s3.env(storeBucket, 'scrubline/'),
        SCRUBLINE_DATA_DIR: dataDir,
        SCRUBLINE_SECRET_KEY: 'bucket-test-key',
        SCRUBLINE_WEBHOOK_SECRET: `whsec_${crypto.randomBytes(24).toString('base64')}`,
        SCRUBLINE_STORAGE_RETRY_MS: '500',
        // The operator allows the clients' S3 service on loopback (buckets go through the outbound target policy).
        SCRUBLINE_WEBHOOK_ALLOW: new URL(s3.endpoint).host,
        LOG_LEVEL: 'debug',
      };
    };
    const [server, ...started] = await Promise.allSettled([
      startServerProcess({ ...env('api'), SCRUBLINE_WORKERS: '0' }),
      startWorkerProcess({ ...env('worker-1'), SCRUBLINE_WORKERS: '1' }),
      startWorkerProcess({ ...env('worker-2'), SCRUBLINE_WORKERS: '1' }),
    ]);
    // Whatever started is stopped after, even when another failed to start.
    if (server.status === 'fulfilled') api = server.value;
    for (const worker of started) if (worker.status === 'fulfilled') workers.push(worker.value);
    const failed = [server, ...started].find((p) => p.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
  });

  after(async () => {
    for (const worker of workers) await worker.stop('SIGKILL');
    await api?.stop('SIGKILL');
    await db?.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a bucket folder as a batch: every job fetched by a worker, results written back, nothing on local disk, no credential shown', async () => {
    // The clients' bucket is reached with the system settings' credentials (sealed in the store, masked when read).
    const set = await call('POST', '/system/set-parameter', {
      name: 'systemSettings',
      value: { endpoint: s3.endpoint, region: s3.region, apiKeyCloud: s3.accessKeyId, secretKeyCloud: settingsSecret },
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const settings = await call('GET', '/system/get-settings');
    assert.notEqual(settings.body.secretKeyCloud, settingsSecret, 'the secret is answered masked');

    const submitted = await call('POST', '/asr/transcribe', {
      cloudStorageFolder: `s3://${calls}/inbox/2026-11-25/`,
      transcriptOutput: `s3://${calls}/results/`,
      outputFormats: ['vendorA', 'text'],
      scrubaudio: true,
      types: ['USSocialSecurityNumber'],
    });
    assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
    const jobs = submitted.body.jobs as { jobId: string; fileName?: string }[];
    assert.equal(jobs.length, 3, 'one job per recording; notes.txt is not one');

    const done = new Map<string, any>();
    await until(async () => {
      for (const job of jobs) {
        if (done.has(job.jobId)) continue;
        const res = await call('GET', `/asr/jobs/${job.jobId}`);
        if (['completed', 'failed', 'cancelled'].includes(res.body.status)) done.set(job.jobId, res.body);
      }
      return done.size === jobs.length;
    }, 'every job of the batch to end', 600_000);
    for (const job of done.values()) assert.equal(job.status, 'completed', JSON.stringify(job));

    // Results back in the clients' bucket, under results/<job id>/: the shapes asked for, the redacted audio,
    // the job record; never the original recording.
    const out = s3.store(calls);
    try {
      for (const job of jobs) {
        const keys = (await out.list(`results/${job.jobId}/`)).map((b) => b.key.slice(`results/${job.jobId}/`.length)).sort();
        assert.deepEqual(keys, ['job.json', 'redacted.wav', 'transcript.txt', 'transcript.vendorA.json'], `results of ${job.jobId}`);
        const chunks: Buffer[] = [];
        for await (const c of await out.get(`results/${job.jobId}/job.json`)) chunks.push(Buffer.from(c as Buffer));
        const record = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        assert.equal(record.jobId, job.jobId);
      }
      // The recording is served by the API from the service's store (the bucket), redacted.
      const audio = await fetch(`${api.url}/asr/jobs/${jobs[0].jobId}/audio`);
      assert.equal(audio.status, 200);
      assert.ok((await audio.arrayBuffer()).byteLength > 1000);
      // A player's byte range.
      const part = await fetch(`${api.url}/asr/jobs/${jobs[0].jobId}/audio`, { headers: { range: 'bytes=0-99' } });
      assert.equal(part.status, 206);
      assert.equal((await part.arrayBuffer()).byteLength, 100);
    } finally {
      out.destroy();
    }
    // The service's own files are in its bucket, under its prefix.
    const store = s3.store(storeBucket, 'scrubline/');
    try {
      for (const job of jobs) assert.ok((await store.list(`uploads/${job.jobId}/`)).length > 0, `the store keeps ${job.jobId}'s redacted recording`);
    } finally {
      store.destroy();
    }

    // Nothing in any process's data directory: no upload, no staged recording, no redacted copy, no key file.
    for (const dataDir of dataDirs) assert.deepEqual(filesUnder(dataDir), [], `${dataDir} holds files`);

    // Deleting a job removes its files from the store and (in the background, never in the request) its results
    // from the output folder.
    const gone = await call('DELETE', `/asr/jobs/${jobs[2].jobId}`);
    assert.equal(gone.status, 204, JSON.stringify(gone.body));
    const check = s3.store(calls);
    try {
      await until(async () => (await check.list(`results/${jobs[2].jobId}/`)).length === 0 || undefined, "the job's results to be removed from the output folder");
    } finally {
      check.destroy();
    }

    // The credentials: in no response, in no log line of any process.
    const outputs = [api.output(), ...workers.map((w) => w.output())];
    for (const secret of [s3.secretAccessKey, settingsSecret]) {
      for (const body of bodies) assert.ok(!body.includes(secret), 'a response holds a bucket secret');
      for (const output of outputs) assert.ok(!output.includes(secret), 'a log holds a bucket secret');
    }
  });
});
