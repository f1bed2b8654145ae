// What is left of a recording after scrubaudio: the original is deleted once the redacted copy is written
// and checked, and /audio serves the copy; with keepOriginal (request or project) the original stays, served
// to admin keys only (403 to a read key) and each read an event; autoDelete deletes the original and keeps
// the redacted copy and the transcript; a resubmit runs on the redacted copy.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hasFestivalVoice, hasTool, speakFestival, tempDir } from '../helpers/audio.js';
import { json, startTestService, type TestService } from '../helpers/harness.js';
import { blobExists, blobKeys, readBlob } from '../helpers/blobs.js';
import { transcribeAndWait } from '../helpers/jobs.js';
import { until } from '../helpers/poll.js';
import { required } from '../helpers/require.js';

const canRun = hasTool('ffmpeg') && hasFestivalVoice() && fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us');
const DIGITS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

describe('the original recording after audio redaction', { skip: required(!canRun && 'needs ffmpeg, festival with the US HTS voice, and PocketSphinx') }, () => {
  let svc: TestService;
  let dir: string;
  let recording: string;
  let originalBytes: Buffer;
  /** Keys in the service's blob store (the data dir, or a bucket with SCRUBLINE_BLOB_STORE=s3). */
  const uploaded = (jobId: string) => `uploads/${jobId}/ssn.wav`;
  const stored = (jobId: string) => blobExists(svc, uploaded(jobId));
  /** The job's redacted copy: named by the run that wrote it, and the only one in the job's folder. */
  const copyOf = async (jobId: string) => {
    const copies = (await blobKeys(svc, `uploads/${jobId}/`)).filter((key) => key.split('/').pop()!.startsWith('redacted-'));
    assert.equal(copies.length, 1, `one redacted copy in the job's folder, found ${copies.join(', ')}`);
    return copies[0];
  };
  const copyBytes = async (jobId: string) => (await readBlob(svc, await copyOf(jobId)))!;
  const scrub = { scrubaudio: 'true', types: 'USSocialSecurityNumber' };

  before(async () => {
    svc = await startTestService('sqlite');
    dir = tempDir();
    recording = speakFestival('my social security number is one two three four five six seven eight nine. thank you.', path.join(dir, 'ssn.wav'));
    originalBytes = fs.readFileSync(recording);
  });
  after(async () => {
    await svc.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function audio(jobId: string, query = '', key?: string) {
    return svc.request({ method: 'GET', url: `/asr/jobs/${jobId}/audio${query}`, ...(key && { headers: { authorization: `Bearer ${key}` } }) });
  }

  test('by default the original is deleted and /audio serves the redacted copy; a resubmit runs on the copy', async () => {
    const job = await transcribeAndWait(svc, recording, { fields: scrub });
    assert.equal(job.redactionStatus, 'completed');
    assert.equal(job.redaction.audio.keepOriginal, false);
    assert.ok(!(await stored(job.jobId)), 'the original is gone from the store');
    const copy = await copyBytes(job.jobId);
    assert.notDeepEqual(copy, originalBytes, 'the copy differs from the original');

    const served = await audio(job.jobId);
    assert.equal(served.statusCode, 200);
    assert.deepEqual(served.rawPayload, copy, '/audio serves the redacted copy');
    assert.deepEqual((await audio(job.jobId, '?redacted=true')).rawPayload, copy);
    const original = await audio(job.jobId, '?redacted=false');
    assert.equal(original.statusCode, 404, original.body);
    assert.match(json(original).detail, /deleted after audio redaction/);
    // Nothing under the job's folder or anywhere in the data dir (or the bucket) is the original any more.
    const files = fs.readdirSync(svc.database.dataDir, { recursive: true }).map(String);
    for (const name of files) {
      const file = path.join(svc.database.dataDir, name);
      if (fs.statSync(file).isFile()) assert.notDeepEqual(fs.readFileSync(file), originalBytes, `${name} is the original`);
    }
    for (const key of await blobKeys(svc, 'uploads/')) assert.notDeepEqual(await readBlob(svc, key), originalBytes, `${key} is the original`);

    // A resubmit (even without scrubbing) has only the redacted copy to run on: the digits are not heard.
    const again = await svc.request({ method: 'POST', url: '/asr/transcribe', payload: { jobId: job.jobId, wait: 120 } });
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(json(again).status, 'completed', json(again).message);
    const text = (await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/transcript?format=text` })).body;
    for (const digit of DIGITS) assert.ok(!text.split(/\s+/).includes(digit), `"${digit}" heard again on resubmit: ${text}`);

    // A resubmit that scrubs again writes a copy of its own run (never over the copy the job serves while it
    // runs); once it holds the result, the earlier run's copy is gone and /audio serves the new one.
    const firstCopy = await copyOf(job.jobId);
    const scrubbed = await svc.request({ method: 'POST', url: '/asr/transcribe', payload: { jobId: job.jobId, wait: 300, scrubaudio: true, types: ['USSocialSecurityNumber'] } });
    assert.equal(json(scrubbed).status, 'completed', scrubbed.body);
    const secondCopy = await copyOf(job.jobId);
    assert.notEqual(secondCopy, firstCopy, 'the copy is named by the run that wrote it');
    assert.ok(!(await blobExists(svc, firstCopy)), 'the earlier copy is removed');
    assert.deepEqual((await audio(job.jobId)).rawPayload, await readBlob(svc, secondCopy));
  });

  test('keepOriginal (request or project): the original stays, for admin keys only, each read an event; autoDelete still deletes it', async () => {
    const kept = await transcribeAndWait(svc, recording, { fields: { ...scrub, keepOriginal: 'true' } });
    assert.equal(kept.redaction.audio.keepOriginal, true);
    assert.ok(await stored(kept.jobId), 'kept in the store');

    const publish = await svc.request({
      method: 'POST',
      url: '/system/cache/v2/publish',
      payload: { data: JSON.stringify({ sid: 'keeper', scrubaudio: true, scrubtext: true, keepOriginal: true, rules: [{ name: 'USSocialSecurityNumber', active: true }] }) },
    });
    assert.equal(publish.statusCode, 200, publish.body);
    const byProject = await transcribeAndWait(svc, recording, { fields: { sid: 'keeper' } });
    assert.equal(byProject.redaction.audio.keepOriginal, true);
    assert.ok(await stored(byProject.jobId), "the project's keepOriginal keeps it");

    // autoDelete wins over keepOriginal: the original goes when the job ends; the copy and transcript stay.
    const auto = await transcribeAndWait(svc, recording, { fields: { ...scrub, keepOriginal: 'true', autoDelete: 'true' } });
    await until(async () => !(await stored(auto.jobId)), 'the original to be deleted');
    assert.ok(!(await stored(auto.jobId)), 'autoDelete deleted the original');
    assert.ok(await blobExists(svc, await copyOf(auto.jobId)), 'autoDelete kept the redacted copy');
    const autoServed = await audio(auto.jobId);
    assert.equal(autoServed.statusCode, 200);
    assert.deepEqual(autoServed.rawPayload, await copyBytes(auto.jobId));
    assert.equal((await svc.request({ method: 'GET', url: `/asr/jobs/${auto.jobId}/transcript?format=vendorA` })).statusCode, 200);

    // Keys from here on: every call needs one.
    const admin = (await svc.services.store.apiKeys.create('admin', 'admin')).key;
    const reader = (await svc.services.store.apiKeys.create('reader', 'read')).key;
    const events = async (jobId: string) =>
      json(await svc.request({ method: 'GET', url: `/system/events?subject=${jobId}`, headers: { authorization: `Bearer ${admin}` } })).events.filter(
        (e: { subType: string }) => e.subType === 'original_audio_read',
      );
    for (const job of [kept, byProject]) {
      const forbidden = await audio(job.jobId, '?redacted=false', reader);
      assert.equal(forbidden.statusCode, 403, forbidden.body);
      assert.match(forbidden.headers['content-type'] as string, /application\/problem\+json/);
      assert.equal((await events(job.jobId)).length, 0, 'a refused read reads nothing');
      const toReader = await audio(job.jobId, '', reader);
      assert.equal(toReader.statusCode, 200);
      assert.deepEqual(toReader.rawPayload, await copyBytes(job.jobId), 'a read key gets the redacted copy');
      const toAdmin = await audio(job.jobId, '?redacted=false', admin);
      assert.equal(toAdmin.statusCode, 200, toAdmin.body);
      assert.deepEqual(toAdmin.rawPayload, originalBytes, 'an admin key gets the original');
      await audio(job.jobId, '?redacted=false', admin);
      const reads = await events(job.jobId);
      assert.equal(reads.length, 2, 'each read of the original is an event');
      assert.equal(JSON.parse(reads[0].details).keyName, 'admin', 'the event names the key');
    }
    assert.equal((await audio(auto.jobId, '?redacted=false', admin)).statusCode, 404, 'the autoDeleted original is not served');
  });
});
