// Text redaction of jobs: the seeded values are gone from every transcript shape and from the job record;
// the spans keep their times; a project's published rules apply without a restart.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { keypadEntries } from '../../src/audio/keypadEntries.js';
import { maskKeypadWords, widenUntimed } from '../../src/jobs/jobRedaction.js';
import { json, startTestService, type TestService } from '../helpers/harness.js';
import { until } from '../helpers/poll.js';

// Receivers here are on 127.0.0.1, which notifications may reach only when allowed (test/notifications/ssrf.test.ts).
const LOOPBACK_ALLOW = { SCRUBLINE_WEBHOOK_ALLOW: '127.0.0.0/8' };

const CALL = [
  'Agent: thank you for calling may i have your name please',
  'Caller: my name is john smith',
  'Agent: and your social security number',
  'Caller: my social is one two three four five six seven eight nine',
  'Agent: thank you',
].join('\n');
const SEEDED = ['john', 'smith', 'one two three', 'four five six', 'seven eight nine', '123', '456789'];
/**
 * Whether `text` holds `value` as a value: not inside a longer run of letters and digits. Random ids (run and
 * worker UUIDs, webhook ids) and millisecond timestamps hold "123" often enough to fail a plain substring test.
 */
const holds = (text: string, value: string) => new RegExp(`(?<![0-9a-z])${value}(?![0-9a-z])`, 'i').test(text);

test('a span without a usable time is redacted wider, not skipped, and counted', () => {
  const spans = [
    { channel: 0, kind: 'Person', start: 1.2, end: 1.9, replacement: '[PERSON]', confidence: 1 },
    { channel: 1, kind: 'CreditCardNumber', start: 4, end: 4, replacement: '[CREDIT_CARD_NUMBER]', confidence: 1 },
    { channel: 0, kind: 'Person', start: 0.05, end: 0.05, replacement: '[PERSON]', confidence: 1 },
    // One short key press, found on the recording (64 ms): timed, not widened nor counted.
    { channel: 1, kind: 'DTMF', start: 6.49087, end: 6.55463, replacement: '', confidence: 1 },
  ];
  assert.equal(widenUntimed(spans, 10), 2);
  assert.deepEqual(spans.map((s) => [s.start, s.end]), [[1.2, 1.9], [3.7, 4.3], [0, 0.35], [6.49087, 6.55463]]);
});

test('words over a keypad entry become one [DTMF]; speech running on right after the tones is kept', () => {
  const timed = [[0.5, 0.9, 'hello'], [1.5, 1.9, 'four'], [1.95, 2.4, 'five'], [2.42, 2.8, 'done'], [2.81, 3.2, 'did'], [3.21, 3.6, 'it'], [3.61, 4, 'work']] as const;
  const words = timed.map(([start, end, word]) => ({ word, start, end, confidence: 0.9 }));
  const transcript = { model: 'm', engine: 'e', language: 'en', audioSeconds: 5, sourceSampleRate: 8000, processingSeconds: 0, channels: [{ channel: 0, words, segments: [] }] };
  const { transcript: masked, spans } = maskKeypadWords(transcript, [{ channel: 0, start: 1.4, end: 2 }]);
  assert.equal(masked.channels[0].words.map((w) => w.word).join(' '), 'hello [DTMF] done did it work');
  assert.deepEqual(spans.map((s) => [s.kind, s.start, s.end, s.replacement]), [['DTMF', 1.4, 2.4, '[DTMF]']]);
});

test('a recording below 4 kHz holds no keypad tones (the detector is not run, the job is not failed)', () => {
  const pcm = { samples: new Int16Array(3000 * 2), sampleRate: 3000, channels: 1 };
  assert.deepEqual(keypadEntries(pcm as Parameters<typeof keypadEntries>[0]), []);
});

describe('job redaction', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService('sqlite', { env: LOOPBACK_ALLOW });
  });
  after(() => svc.close());

  async function run(payload: object) {
    const res = await svc.request({ method: 'POST', url: '/asr/transcribe?wait=300', payload });
    assert.equal(res.statusCode, 200, res.body);
    const job = json(res);
    assert.equal(job.status, 'completed', job.message);
    return job;
  }
  const everything = async (jobId: string) => {
    const parts = [JSON.stringify(json(await svc.request({ method: 'GET', url: `/asr/jobs/${jobId}` })))];
    for (const format of ['vendorA', 'vendorB', 'transcript', 'utterances', 'text', 'srt', 'vtt']) {
      for (const redacted of ['true', 'false']) {
        const res = await svc.request({ method: 'GET', url: `/asr/jobs/${jobId}/transcript?format=${format}&redacted=${redacted}` });
        assert.equal(res.statusCode, 200, `${format}: ${res.body}`);
        parts.push(res.body);
      }
    }
    const stored = await svc.services.store.database.db.selectFrom('job_results').selectAll().where('job_id', '=', jobId).execute();
    parts.push(JSON.stringify(stored));
    return parts.join('\n').toLowerCase();
  };

  test('types: the named kinds are masked everywhere, with their spans', async () => {
    const job = await run({ text: CALL, types: ['Person', 'USSocialSecurityNumber'] });
    assert.equal(job.redactionStatus, 'completed');
    assert.ok(job.transcriptRedacted, 'the record carries transcriptRedacted');
    // The kinds named, each with one span or more (the spoken SSN also makes number windows by default, issue 31).
    const kinds = [...new Set(job.redaction.spans.map((s: { kind: string }) => s.kind))].sort();
    assert.deepEqual(kinds, ['Person', 'USSocialSecurityNumber']);
    for (const span of job.redaction.spans) assert.ok(span.end > span.start);
    const text = (await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/transcript?format=text` })).body;
    assert.match(text, /\[PERSON\]/);
    assert.match(text, /\[US_SOCIAL_SECURITY_NUMBER\]/);
    const all = await everything(job.jobId);
    for (const value of SEEDED) assert.ok(!holds(all, value), `"${value}" survived somewhere`);
  });

  test('the notification payload, the jobs row and the stored delivery carry no seeded value either', async () => {
    const bodies: string[] = [];
    const hook = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        bodies.push(body);
        res.end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
      const job = await run({ text: CALL, types: ['Person', 'USSocialSecurityNumber'], notification: { url } });
      await until(() => bodies.length > 0, 'the notification');
      assert.equal(bodies.length, 1, 'the notification arrived');
      const event = JSON.parse(bodies[0]);
      assert.deepEqual([event.jobId, event.subType, event.processJob.redactionStatus], [job.jobId, 'completed', 'completed']);
      const db = svc.services.store.database.db;
      const rows = JSON.stringify([
        await db.selectFrom('jobs').selectAll().where('id', '=', job.jobId).execute(),
        await db.selectFrom('deliveries').selectAll().execute(),
      ]);
      for (const [where, text] of [['notification payload', bodies[0]], ['jobs and deliveries rows', rows], ['job', await everything(job.jobId)]]) {
        const lower = text.toLowerCase();
        for (const value of SEEDED) assert.ok(!holds(lower, value), `"${value}" survived in the ${where}`);
      }
    } finally {
      await new Promise((resolve) => hook.close(resolve));
    }
  });

  test('a published project configuration applies to the next job, with its mask types', async () => {
    const publish = (rules: object[]) =>
      svc.request({ method: 'POST', url: '/system/cache/v2/publish', payload: { data: JSON.stringify({ sid: 'bank', scrubtext: true, rules }) } });
    assert.equal((await publish([{ name: 'USSocialSecurityNumber', active: true, mask_type: 'Placeholder', setting: '[SSN]' }])).statusCode, 200);
    const first = await run({ text: CALL, sid: 'bank' });
    const firstText = (await svc.request({ method: 'GET', url: `/asr/jobs/${first.jobId}/transcript?format=text` })).body;
    assert.match(firstText, /\[SSN\]/);
    assert.match(firstText, /john smith/, 'Person is not a rule of version 1');
    assert.equal((await publish([
      { name: 'USSocialSecurityNumber', active: true, mask_type: 'Placeholder', setting: '[SSN]' },
      { name: 'Person', active: true, mask_type: 'EntityIndex', setting: '[PERSON]' },
    ])).statusCode, 200);
    const second = await run({ text: CALL, sid: 'bank' });
    const secondText = (await svc.request({ method: 'GET', url: `/asr/jobs/${second.jobId}/transcript?format=text` })).body;
    assert.match(secondText, /\[PERSON_1\]/);
    assert.doesNotMatch(secondText, /john|smith/);
  });

  test('without redaction asked for, redacted=true is a 409 and the words are kept', async () => {
    const job = await run({ text: CALL });
    assert.equal(job.redactionStatus, 'not_requested');
    assert.equal((await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/transcript?redacted=true` })).statusCode, 409);
    assert.match((await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/transcript?format=text` })).body, /john smith/);
  });
});
