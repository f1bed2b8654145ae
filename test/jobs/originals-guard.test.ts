// Originals guarded (issue 31): while a job owes redaction, no non-admin key (read or submit) gets its original
// recording or unredacted transcript through any route — /audio with and without `redacted`, /transcript in
// every shape, the job record and the job list — in every state: queued, running, failed, cancelled, and
// completed with a redaction that left the recording as it was (scrubtext only). Once the redacted artifact
// exists a read key reads it as before. An admin key reads an original, and each such read is a job event
// naming the key (never its secret). States are made deterministically: one worker slot held by a recognizer
// the test releases keeps a second job queued; a recognizer that throws fails a job. Everything else (store,
// HTTP API, redaction, ffmpeg) is real, on SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RecognizeFile } from '../../src/jobs/worker.js';
import { PermanentJobError } from '../../src/jobs/worker.js';
import { textToTranscript } from '../../src/jobs/textTranscript.js';
import { deliveryVerdict, originalsVerdict } from '../../src/jobs/originalsGuard.js';
import { TargetPolicy } from '../../src/jobs/notifications/targetPolicy.js';
import { CloudBuckets } from '../../src/jobs/cloud/buckets.js';
import { resultExporter } from '../../src/jobs/cloud/exportResults.js';
import { TRANSCRIPT_FORMATS } from '../../src/transcript/index.js';
import { ffmpeg, hasTool, tempDir } from '../helpers/audio.js';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';
import { multipart } from '../helpers/multipart.js';
import { until } from '../helpers/poll.js';
import { required } from '../helpers/require.js';
import { testS3 } from '../helpers/s3.js';

// One speaker (the recording is mono): the words fall inside its 12 seconds.
const CALL = 'may i have your social security number my social is one two three four five six seven eight nine thank you';
/** Words of the number as spoken: none may reach a non-admin key in any text. */
const SECRET = /seven eight nine|one two three|123-?45-?6789/;

/** Recognizes every job as CALL; a job tracked `hold` waits until released (or aborted), one tracked `fail` throws. */
class ScriptedRecognizer {
  private gate!: () => void;
  private held = new Promise<void>((resolve) => (this.gate = resolve));
  holding = 0;

  release(): void {
    this.gate();
  }

  readonly recognize: RecognizeFile = async (_file, options) => {
    const tracking = options.params.tracking_id;
    // The re-recognition check of a redacted copy runs without the job's parameters: it hears nothing.
    if (tracking === undefined) return { ...textToTranscript('', 'en-us:test', 0), engine: 'test' };
    if (tracking === 'fail') throw new PermanentJobError('the recognizer failed (test)');
    if (tracking === 'hold') {
      this.holding++;
      await Promise.race([this.held, new Promise<void>((resolve) => options.signal?.addEventListener('abort', () => resolve(), { once: true }))]);
      options.signal?.throwIfAborted();
    }
    return { ...textToTranscript(CALL, 'en-us:test', 0), engine: 'test' };
  };
}

test('the rule: a job that owes redaction gives a non-admin reader only its redacted artifact, once it exists', () => {
  const state = (status: string, redactionStatus: string, redacted = false) => ({ status, redactionStatus, owes: true, redacted });
  const refusal = (s: ReturnType<typeof state>, artifact: 'audio' | 'transcript' = 'audio') => {
    const verdict = originalsVerdict(s, artifact, 'j');
    assert.ok('refuse' in verdict, `${s.status}/${s.redactionStatus}: refused`);
    return verdict.refuse.kind;
  };
  assert.equal(refusal(state('queued', 'pending')), 'conflict');
  assert.equal(refusal(state('processing', 'pending')), 'conflict');
  assert.equal(refusal(state('failed', 'failed')), 'forbidden');
  assert.equal(refusal(state('cancelled', 'pending')), 'forbidden');
  // Completed, but the recording has no redacted copy (scrubtext only): the recording is an original.
  assert.equal(refusal(state('completed', 'completed', false)), 'forbidden');
  // Completed with its redaction still pending (never redacted): its transcript is an original too.
  assert.equal(refusal(state('completed', 'pending', true), 'transcript'), 'forbidden');
  assert.deepEqual(originalsVerdict(state('completed', 'completed', true), 'audio', 'j'), { give: 'redacted' });
  assert.deepEqual(originalsVerdict({ ...state('queued', 'not_requested'), owes: false }, 'audio', 'j'), { give: 'stored' });
  // Deliveries (notification contents, bucket exports): a job that owed redaction and has no record exports nothing.
  assert.ok('refuse' in deliveryVerdict({ id: 'j', redaction_status: 'pending' }, 'completed', false, 'transcript'));
  assert.ok(!('refuse' in deliveryVerdict({ id: 'j', redaction_status: 'pending' }, 'completed', true, 'transcript')));
  assert.ok(!('refuse' in deliveryVerdict({ id: 'j', redaction_status: 'not_requested' }, 'completed', false, 'transcript')));
});

const canRun = hasTool('ffmpeg');

for (const dialect of await dialects()) {
  describe(`originals of a job that owes redaction (${dialect})`, { skip: required(!canRun && 'needs ffmpeg') }, () => {
    let svc: TestService;
    let dir: string;
    let original: Buffer;
    const recognizer = new ScriptedRecognizer();
    const keys: Record<'admin' | 'submit' | 'read', { key: string; id: string }> = {} as never;
    const scrub = { scrubtext: 'true', types: 'USSocialSecurityNumber' };
    // A notification target that never answers: what matters is the payload the job queued for it.
    const notify = { notification: JSON.stringify({ url: 'http://127.0.0.1:9/hook', contents: ['transcript', 'transcript.txt', 'transcript.srt'] }) };
    /** Jobs by the state the test put them in. */
    const jobs: Record<string, string> = {};

    const as = (who: keyof typeof keys) => ({ authorization: `Bearer ${keys[who].key}` });
    const get = (who: keyof typeof keys, url: string) => svc.request({ method: 'GET', url, headers: as(who) });
    const status = async (jobId: string) => json(await get('admin', `/asr/jobs/${jobId}`)).status as string;

    async function submit(fields: Record<string, string>): Promise<string> {
      const body = multipart(fields, [{ name: 'audio', filename: 'call.wav', content: original }]);
      const res = await svc.request({ method: 'POST', url: '/asr/transcribe', payload: body.payload, headers: { ...body.headers, ...as('submit') } });
      assert.equal(res.statusCode, 202, res.body);
      return json(res).jobId;
    }

    async function events(jobId: string) {
      const res = await get('admin', `/system/events?subject=${jobId}`);
      assert.equal(res.statusCode, 200, res.body);
      return (json(res).events as { subType: string; details: string }[]).filter((e) => e.subType.startsWith('original_'));
    }

    before(async () => {
      dir = tempDir();
      const file = path.join(dir, 'call.wav');
      ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=300:duration=12', '-ar', '16000', file]);
      original = fs.readFileSync(file);
      // One worker slot: while the held job runs, the next one stays queued.
      svc = await startTestService(dialect, { env: { SCRUBLINE_WORKERS: '1', SCRUBLINE_JOB_LEASE_MS: '600000', SCRUBLINE_WEBHOOK_ALLOW: '127.0.0.0/8' }, overrides: { recognize: recognizer.recognize } });
      for (const scope of ['admin', 'submit', 'read'] as const) {
        const made = await svc.services.store.apiKeys.create(scope, scope);
        keys[scope] = { key: made.key, id: made.id };
      }
      await svc.app.keysChanged();

      // Completed: text redaction only (the recording stays as it was), and audio redaction keeping the original.
      jobs.completedTextOnly = await submit({ ...scrub, ...notify, tracking_id: 'done' });
      await until(async () => (await status(jobs.completedTextOnly)) === 'completed', 'the scrubtext job to complete');
      jobs.completedAudio = await submit({ ...scrub, scrubaudio: 'true', keepOriginal: 'true', tracking_id: 'done' });
      await until(async () => (await status(jobs.completedAudio)) === 'completed', 'the scrubaudio job to complete');
      // Failed: the recognizer throws; the original stays (a failed redaction deletes nothing).
      jobs.failed = await submit({ ...scrub, ...notify, scrubaudio: 'true', tracking_id: 'fail' });
      await until(async () => (await status(jobs.failed)) === 'failed', 'the failing job to fail');
      // Failed after a resubmit: an unredacted transcript of an earlier run is stored, and redaction is now owed.
      jobs.resubmittedFailed = await submit({ tracking_id: 'done' });
      await until(async () => (await status(jobs.resubmittedFailed)) === 'completed', 'the unredacted job to complete');
      const again = await svc.request({ method: 'POST', url: '/asr/transcribe', headers: as('submit'), payload: { jobId: jobs.resubmittedFailed, scrubtext: true, types: ['USSocialSecurityNumber'], tracking_id: 'fail' } });
      assert.equal(again.statusCode, 202, again.body);
      await until(async () => (await status(jobs.resubmittedFailed)) === 'failed', 'the resubmitted job to fail');
      // Completed unredacted, then its project started requiring redaction: what it holds is an original now.
      const publish = (data: object) => svc.request({ method: 'POST', url: '/system/cache/v2/publish', headers: as('admin'), payload: { data: JSON.stringify(data) } });
      assert.equal((await publish({ sid: 'late', rules: [] })).statusCode, 200);
      jobs.projectNowScrubs = await submit({ sid: 'late', tracking_id: 'done' });
      await until(async () => (await status(jobs.projectNowScrubs)) === 'completed', 'the unredacted project job to complete');
      const scrubs = await publish({ sid: 'late', scrubtext: true, rules: [{ name: 'USSocialSecurityNumber', active: true }] });
      assert.equal(scrubs.statusCode, 200, scrubs.body);
      // Running: held in the recognizer. Queued: behind it (one slot). Cancelled: queued, then cancelled.
      jobs.running = await submit({ ...scrub, scrubaudio: 'true', tracking_id: 'hold' });
      await until(() => recognizer.holding > 0, 'the held job to start recognizing');
      jobs.queued = await submit({ ...scrub, scrubaudio: 'true', tracking_id: 'done' });
      jobs.cancelled = await submit({ ...scrub, ...notify, tracking_id: 'done' });
      // Queued too, asking no kinds: its project's insight redacts, so its run will redact (redactionStatus says
      // not_requested until then).
      const insightful = await publish({ sid: 'insightful', rules: [], insights: [{ id: 'said', name: 'Said', expression: '*', redactText: true, redactAudio: true }] });
      assert.equal(insightful.statusCode, 200, insightful.body);
      jobs.queuedByInsight = await submit({ sid: 'insightful', insights: 'said', tracking_id: 'done' });
      assert.equal((await svc.services.store.jobs.get(jobs.queuedByInsight))!.redaction_status, 'not_requested');
      const cancel = await svc.request({ method: 'POST', url: `/asr/jobs/${jobs.cancelled}/cancel`, headers: as('submit') });
      assert.equal(cancel.statusCode, 200, cancel.body);
      assert.equal(await status(jobs.running), 'processing');
      assert.equal(await status(jobs.queued), 'queued');
      assert.equal(await status(jobs.cancelled), 'cancelled');
    });
    after(async () => {
      recognizer.release();
      await svc?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    /** Every route a non-admin key reads a job by: none answers the original bytes or the spoken number. */
    async function assertNothingOriginal(who: 'read' | 'submit', jobId: string, expected: { audio: number[]; transcript: number[] }) {
      for (const query of ['', '?redacted=false', '?redacted=true']) {
        const res = await get(who, `/asr/jobs/${jobId}/audio${query}`);
        assert.notDeepEqual(res.rawPayload, original, `${who} /audio${query} answered the original of ${jobId}`);
        assert.ok(expected.audio.includes(res.statusCode), `${who} /audio${query}: ${res.statusCode} ${res.body.slice(0, 300)}`);
        if (res.statusCode >= 400) assert.match(res.headers['content-type'] as string, /application\/problem\+json/);
      }
      for (const format of TRANSCRIPT_FORMATS) {
        for (const query of ['', '&redacted=true', '&redacted=false']) {
          const res = await get(who, `/asr/jobs/${jobId}/transcript?format=${format}${query}`);
          assert.ok(expected.transcript.includes(res.statusCode), `${who} ${format}${query}: ${res.statusCode} ${res.body.slice(0, 300)}`);
          assert.ok(!SECRET.test(res.body), `${who} ${format}${query} holds the number`);
        }
      }
      const record = await get(who, `/asr/jobs/${jobId}`);
      assert.equal(record.statusCode, 200);
      assert.ok(!SECRET.test(record.body), `${who}: the job record holds the number`);
      const list = await get(who, '/asr/jobs?limit=500');
      assert.ok(!SECRET.test(list.body), `${who}: the job list holds the number`);
    }

    for (const who of ['read', 'submit'] as const) {
      test(`${who} key: queued and running jobs answer 409 on every route, never the original`, async () => {
        for (const state of ['queued', 'running'] as const) {
          await assertNothingOriginal(who, jobs[state], { audio: [409], transcript: [409] });
          assert.equal(json(await get(who, `/asr/jobs/${jobs.queuedByInsight}/audio`)).status, 409, 'a job its insights will redact');
          const refused = json(await get(who, `/asr/jobs/${jobs[state]}/audio`));
          assert.equal(refused.reason, 'redaction_pending', JSON.stringify(refused));
        }
      });

      test(`${who} key: failed and cancelled jobs answer 403 on every route, never the original`, async () => {
        for (const state of ['failed', 'cancelled', 'resubmittedFailed'] as const) {
          await assertNothingOriginal(who, jobs[state], { audio: [403], transcript: [403] });
          assert.equal(json(await get(who, `/asr/jobs/${jobs[state]}/audio`)).reason, 'redaction_not_done');
        }
      });

      test(`${who} key: a completed job gives its redacted artifacts only`, async () => {
        // scrubtext only: the transcript is redacted, the recording is not — it is an original.
        await assertNothingOriginal(who, jobs.completedTextOnly, { audio: [403], transcript: [200] });
        const record = json(await get(who, `/asr/jobs/${jobs.completedTextOnly}`));
        assert.ok(record.transcript, 'the redacted transcript is in the record');
        // scrubaudio: the redacted copy, as before; the kept original is refused.
        await assertNothingOriginal(who, jobs.completedAudio, { audio: [200, 403], transcript: [200] });
        const copy = await get(who, `/asr/jobs/${jobs.completedAudio}/audio`);
        assert.equal(copy.statusCode, 200, copy.body);
        assert.match(copy.headers['content-type'] as string, /^audio\//);
        assert.equal((await get(who, `/asr/jobs/${jobs.completedAudio}/audio?redacted=false`)).statusCode, 403);
      });
    }

    test('a completed job whose project now requires redaction: its unredacted content is for admin keys, each read an event', async () => {
      for (const who of ['read', 'submit'] as const) {
        await assertNothingOriginal(who, jobs.projectNowScrubs, { audio: [403], transcript: [403] });
        assert.equal(json(await get(who, `/asr/jobs/${jobs.projectNowScrubs}`)).transcript, undefined, 'no transcript in the record');
      }
      const read = await get('admin', `/asr/jobs/${jobs.projectNowScrubs}/transcript?format=text`);
      assert.equal(read.statusCode, 200, read.body);
      assert.match(read.body, SECRET, 'the admin reads the transcript as recognized');
      const reads = (await events(jobs.projectNowScrubs)).filter((e) => e.subType === 'original_transcript_read');
      assert.equal(reads.length, 1);
      assert.deepEqual(
        (({ artifact, keyId, keyName }) => ({ artifact, keyId, keyName }))(JSON.parse(reads[0].details)),
        { artifact: 'transcript', keyId: keys.admin.id, keyName: 'admin' },
      );
    });

    test('notifications carry a transcript only once it is redacted', async () => {
      for (const state of ['failed', 'cancelled', 'completedTextOnly'] as const) {
        const deliveries = await svc.services.store.deliveries.listByJob(jobs[state]);
        assert.equal(deliveries.length, 1, `${state}: one notification queued`);
        const payload = JSON.parse(deliveries[0].payload);
        assert.ok(!SECRET.test(deliveries[0].payload), `${state}: the notification holds the number`);
        if (state === 'completedTextOnly') assert.ok(payload.transcripts?.['transcript.txt'], `${state}: the redacted transcript is carried`);
        else assert.ok(!payload.transcripts && payload.transcriptsWithheld, `${state}: ${deliveries[0].payload.slice(0, 300)}`);
      }
    });

    test('a bucket export of a job that owes redaction writes nothing without its redaction record', async () => {
      const s3 = await testS3();
      const bucket = await s3.bucket('out');
      const set = await svc.request({
        method: 'POST',
        url: '/system/set-parameter',
        headers: as('admin'),
        payload: { name: 'systemSettings', value: { endpoint: s3.endpoint, region: s3.region, apiKeyCloud: s3.accessKeyId, secretKeyCloud: s3.secretAccessKey } },
      });
      assert.equal(set.statusCode, 200, set.body);
      // Queued behind the held job: its row as a worker would export it.
      const jobId = await submit({ ...scrub, transcriptOutput: `${bucket}/results/`, tracking_id: 'done' });
      const row = (await svc.services.store.jobs.get(jobId))!;
      assert.equal(row.redaction_status, 'pending');
      const { services } = svc;
      const exporter = resultExporter({ blobs: services.blobs, box: services.box, buckets: new CloudBuckets({ box: services.box, settings: (sid) => services.parameters.cloudSettings(sid), store: services.config.blobs, policy: new TargetPolicy(services.config.webhookAllow) }) });
      const transcript = { ...textToTranscript(CALL, 'en-us:test', 0), engine: 'test' };
      await assert.rejects(exporter(row, transcript, undefined, new AbortController().signal), /not exported/);
      const out = s3.store(bucket);
      assert.deepEqual(await out.list('results/'), [], 'nothing reached the bucket');
      // With its redaction record (the run redacted), the results go as before.
      await exporter(row, transcript, { policy: {} }, new AbortController().signal);
      assert.ok((await out.list('results/')).length > 0, 'the redacted results are exported');
      out.destroy();
    });

    test('an admin key reads an original, and each read is a job event naming the key, never its secret', async () => {
      const before = (await events(jobs.queued)).length;
      const queued = await get('admin', `/asr/jobs/${jobs.queued}/audio?redacted=false`);
      assert.equal(queued.statusCode, 200, queued.body);
      assert.deepEqual(queued.rawPayload, original);
      const failed = await get('admin', `/asr/jobs/${jobs.failed}/audio`);
      assert.equal(failed.statusCode, 200, failed.body);
      assert.deepEqual(failed.rawPayload, original);
      const kept = await get('admin', `/asr/jobs/${jobs.completedAudio}/audio?redacted=false`);
      assert.deepEqual(kept.rawPayload, original);
      for (const jobId of [jobs.queued, jobs.failed, jobs.completedAudio]) {
        const reads = await events(jobId);
        assert.equal(reads.length, jobId === jobs.queued ? before + 1 : 1, `one event per read of ${jobId}`);
        const details = JSON.parse(reads.at(-1)!.details);
        assert.equal(reads.at(-1)!.subType, 'original_audio_read');
        assert.deepEqual([details.artifact, details.keyId, details.keyName], ['audio', keys.admin.id, 'admin']);
        assert.ok(!JSON.stringify(reads).includes(keys.admin.key), 'the key itself is not in the event');
      }
      // A refused read reads nothing and records nothing.
      await get('read', `/asr/jobs/${jobs.failed}/audio?redacted=false`);
      assert.equal((await events(jobs.failed)).length, 1);
    });
  });
}
