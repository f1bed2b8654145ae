// The leak matrix (issue 14): every path that takes sensitive input (audio job, text job, post-call, real-call,
// resubmit) × every place its output lands (every transcript shape both ways, the job record and list, /audio both
// ways, the stored rows, the raw database and data files, notification payloads, events, /cache/list, logs at trace)
// × every way of asking for redaction that used to give none or less. No seeded value may survive anywhere; a way
// of asking that cannot be honoured exactly must be refused with a 4xx.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { recognizeFile } from '../../src/engine/recognize.js';
import { hasFestivalVoice, hasTool, speakFestival, tempDir } from '../helpers/audio.js';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';
import { multipart } from '../helpers/multipart.js';
import { until } from '../helpers/poll.js';
import { required } from '../helpers/require.js';

// Receivers here are on 127.0.0.1, which notifications may reach only when allowed (test/notifications/ssrf.test.ts).
const LOOPBACK_ALLOW = { SCRUBLINE_WEBHOOK_ALLOW: '127.0.0.0/8' };

// A Luhn-valid card number, an SSN, a name no list holds, a phone number and an e-mail address, in the spellings
// they are planted in. Needles are lower case and long enough not to occur by chance in ids or timestamps.
const CARD = '4539578123456789';
const NEEDLES = [
  'quackenbush', 'zebulon',
  '123-45-6789', '123456789', '123 45 6789', '123_45_6789',
  '4539 5781', '45395781', '5781 2345', '2345 6789', '4539_5781', '453957812345',
  'four five three nine', 'five seven eight one', 'one two three four', 'six seven eight nine', 'five three nine five',
  'zeb.quack', 'quack@example',
  '867-5309', '8675309', 'eight six seven five',
];
const KINDS = ['Person', 'USSocialSecurityNumber', 'CreditCardNumber', 'PhoneNumber', 'Email', 'USBankAccountNumber'];

// A call as text: one utterance per line. The SSN and the card number are written glued to other characters,
// the card is also read across two lines, and the account number is spoken.
const CALL = [
  'Agent: thank you for calling, may I have your name please',
  'Caller: my name is Zebulon Quackenbush',
  'Agent: and your social security number',
  'Caller: ssn:123-45-6789',
  'Agent: and the card number',
  `Caller: card:${CARD}`,
  'Caller: again that is four five three nine five seven eight one',
  'Caller: two three four five six seven eight nine',
  'Caller: reach me at (415) 867-5309 or zeb.quack@example.org',
  'Caller: my account number is one two three four five six seven eight nine',
].join('\n');

function leaks(text: string): string[] {
  const lower = text.toLowerCase();
  return NEEDLES.filter((needle) => lower.includes(needle));
}

function assertClean(where: string, text: string): void {
  const found = leaks(text);
  assert.deepEqual(found, [], `${where} keeps ${found.map((f) => `"${f}"`).join(', ')}`);
}

/** Every file under the data directory (the SQLite database and its WAL included), as latin1 text. */
function dataFiles(dir: string): [string, string][] {
  const out: [string, string][] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) out.push([full, fs.readFileSync(full).toString('latin1')]);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

/** A local receiver of notifications. */
async function receiver() {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      bodies.push(body);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    bodies,
    async waitFor(n: number) {
      await until(() => bodies.length >= n, `${n} notification(s)`);
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** The stored rows of every table (of one job's tables, when `jobId` is given), as text. */
async function allRows(svc: TestService, jobId?: string, only?: string[]): Promise<string> {
  const db = svc.services.store.database.db as any;
  const tables: [string, string | undefined][] = jobId
    ? [['jobs', 'id'], ['job_results', 'job_id'], ['events', 'subject'], ['deliveries', 'job_id']]
    : (only ?? ['jobs', 'job_results', 'events', 'deliveries', 'conversations', 'live_messages', 'project_versions']).map((t) => [t, undefined]);
  const parts: string[] = [];
  for (const [table, column] of tables) {
    const query = db.selectFrom(table).selectAll();
    parts.push(JSON.stringify(await (column ? query.where(column, '=', jobId) : query).execute()));
  }
  return parts.join('\n');
}

/** Every output of a job, by where it came from. */
async function jobOutputs(svc: TestService, jobId: string): Promise<[string, string][]> {
  const out: [string, string][] = [];
  const get = async (url: string) => {
    const res = await svc.request({ method: 'GET', url });
    out.push([url, `${res.statusCode} ${res.body}`]);
    return res;
  };
  await get(`/asr/jobs/${jobId}`);
  for (const format of ['vendorA', 'vendorB', 'transcript', 'utterances', 'text', 'srt', 'vtt']) {
    for (const redacted of ['true', 'false']) {
      const res = await get(`/asr/jobs/${jobId}/transcript?format=${format}&redacted=${redacted}`);
      assert.ok(res.statusCode < 500, `${format} redacted=${redacted}: ${res.statusCode}`);
    }
  }
  await get(`/system/events?subject=${jobId}`);
  out.push(['stored rows', await allRows(svc, jobId)]);
  return out;
}

function assertAllClean(outputs: [string, string][]): void {
  for (const [where, text] of outputs) assertClean(where, text);
}

/** A request that cannot be honoured exactly is a 4xx with a problem body; otherwise the job completed redacted. */
function redactedOrRefused(res: { statusCode: number; body: string }): 'refused' | 'accepted' {
  if (res.statusCode >= 400) {
    assert.ok(res.statusCode < 500, `a refusal is a 4xx, not ${res.statusCode}: ${res.body}`);
    assert.ok(json(res).detail || json(res).title, 'the refusal says why');
    return 'refused';
  }
  assert.equal(res.statusCode, 200, res.body);
  return 'accepted';
}

for (const dialect of await dialects()) {
  describe(`leak matrix (${dialect})`, () => {
    let svc: TestService;
    const logLines: string[] = [];
    let hook: Awaited<ReturnType<typeof receiver>>;
    before(async () => {
      svc = await startTestService(dialect, { logLines, logLevel: 'trace', env: LOOPBACK_ALLOW });
      hook = await receiver();
      const publish = (config: object) => svc.request({ method: 'POST', url: '/system/cache/v2/publish', payload: { data: JSON.stringify(config) } });
      assert.equal((await publish({ sid: 'scrubs-all', scrubtext: true })).statusCode, 200, 'scrubtext with no rules is accepted');
      assert.equal((await publish({ sid: 'bank', scrubtext: true, rules: KINDS.map((name) => ({ name, active: true })) })).statusCode, 200);
    });
    after(async () => {
      await hook.close();
      await svc.close();
    });

    const submitJson = (payload: object, query = '') => svc.request({ method: 'POST', url: `/asr/transcribe?wait=300${query}`, payload });
    const submitForm = (fields: Record<string, string>, query = '') =>
      svc.request({ method: 'POST', url: `/asr/transcribe?wait=300${query}`, ...multipart(fields, []) });

    async function expectRedactedJob(res: { statusCode: number; body: string }, label: string) {
      assert.equal(res.statusCode, 200, `${label}: ${res.body}`);
      const job = json(res);
      assert.equal(job.status, 'completed', `${label}: ${job.message}`);
      assert.equal(job.redactionStatus, 'completed', label);
      for (const [where, text] of await jobOutputs(svc, job.jobId)) assertClean(`${label}: ${where}`, text);
      return job;
    }

    // Each way of asking that used to give no redaction: redacted everywhere, or refused.
    const asks: [string, () => Promise<{ statusCode: number; body: string }>][] = [
      ['JSON body, types list', () => submitJson({ text: CALL, types: KINDS })],
      ['JSON body, scrubtext alone means every kind', () => submitJson({ text: CALL, scrubtext: true })],
      ['JSON body, scrubaudio alone means every kind', () => submitJson({ text: CALL, scrubaudio: true })],
      ['form field holding a JSON list', () => submitForm({ text: CALL, types: JSON.stringify(KINDS) })],
      ['form field, comma-separated', () => submitForm({ text: CALL, types: KINDS.join(',') })],
      ['query and form combined', () => submitForm({ text: CALL, types: KINDS.slice(3).join(',') }, `&types=${KINDS.slice(0, 3).join(',')}`)],
      ['kinds in lower case', () => submitJson({ text: CALL, types: KINDS.map((k) => k.toLowerCase()) })],
      ['kinds with spaces around', () => submitForm({ text: CALL, types: KINDS.map((k) => ` ${k} `).join(',') })],
      ['all', () => submitJson({ text: CALL, types: ['all'] })],
      ['a project that scrubs with no rules', () => submitJson({ text: CALL, sid: 'scrubs-all' })],
      ['a project that scrubs, caller says scrubtext=false', () => submitJson({ text: CALL, sid: 'bank', scrubtext: false })],
      ['a project that scrubs, form says scrubtext=false', () => submitForm({ text: CALL, sid: 'bank', scrubtext: 'false' })],
    ];
    for (const [label, ask] of asks) {
      test(`text job — ${label}: redacted in every output, or refused`, async () => {
        const res = await ask();
        if (redactedOrRefused(res) === 'accepted') await expectRedactedJob(res, label);
      });
    }

    // Ways of asking that cannot be honoured exactly: refused, and no job is made.
    const refusals: [string, () => Promise<{ statusCode: number; body: string }>][] = [
      ['kinds that do not exist (SSN, CreditCard)', () => submitForm({ text: CALL, types: 'SSN,CreditCard' })],
      ['a sid that names no project', () => submitJson({ text: CALL, sid: 'no-such-project' })],
      ['a sid in another letter case', () => submitJson({ text: CALL, sid: 'BANK' })],
      ['a sid that names no project, with scrubtext', () => submitJson({ text: CALL, sid: 'nope', scrubtext: true })],
    ];
    for (const [label, ask] of refusals) {
      test(`text job — ${label}: refused with a 4xx`, async () => {
        const before = (json(await svc.request({ method: 'GET', url: '/asr/jobs?limit=1000' })).jobs ?? []).length;
        const res = await ask();
        assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${res.statusCode}: ${res.body}`);
        const after = (json(await svc.request({ method: 'GET', url: '/asr/jobs?limit=1000' })).jobs ?? []).length;
        assert.equal(after, before, 'no job was made');
      });
    }

    test('publishing rules that name no kind is refused whole', async () => {
      const res = await svc.request({
        method: 'POST',
        url: '/system/cache/v2/publish',
        payload: { data: JSON.stringify({ sid: 'typo', scrubtext: true, rules: [{ name: 'Person' }, { name: 'SSN' }] }) },
      });
      assert.ok(res.statusCode >= 400 && res.statusCode < 500, res.body);
      assert.equal((await submitJson({ text: CALL, sid: 'typo' })).statusCode >= 400, true, 'nothing was published under that sid');
    });

    test('a job restricted to one kind still masks a spoken nine-digit run its kind covers', async () => {
      const res = await submitJson({ text: 'Caller: my account number is one two three four five six seven eight nine', types: ['USSocialSecurityNumber'] });
      const job = await expectRedactedJob(res, 'SSN only');
      assert.ok(job.redaction.spans.length >= 1);
    });

    test('notification payload and deliveries carry no seeded value', async () => {
      const before = hook.bodies.length;
      const res = await submitJson({ text: CALL, types: KINDS, notification: { url: hook.url } });
      const job = await expectRedactedJob(res, 'notified');
      await hook.waitFor(before + 1);
      for (const body of hook.bodies.slice(before)) assertClean('notification payload', body);
      assertClean('stored rows', await allRows(svc, job.jobId));
    });

    test('resubmit cannot lower a job\'s redaction', async () => {
      const first = await expectRedactedJob(await submitJson({ text: CALL, types: KINDS }), 'first run');
      const again = await svc.request({ method: 'POST', url: '/asr/transcribe?wait=300', payload: { jobId: first.jobId, text: CALL, scrubtext: false, types: [] } });
      if (redactedOrRefused(again) === 'accepted') await expectRedactedJob(again, 'resubmitted without redaction');
    });

    test('post-call: every field of a record, by every way of asking', async () => {
      const words = (text: string, from = 0) => text.split(' ').map((word, i) => ({ word, start: from + i * 0.4, end: from + i * 0.4 + 0.35, confidence: 0.9 }));
      const record = (eventId: string, extra: object) => ({
        eventId,
        conversationId: `c-${eventId}`,
        vendorATranscript: {
          utterances: [
            { metadata: { channel: 1 }, events: words('my name is zebulon quackenbush and my card is four five three nine five seven eight one') },
            { metadata: { channel: 1 }, events: words('two three four five six seven eight nine thanks', 8) },
          ],
          ctidata: { full_name: 'Zebulon Quackenbush', call_number: '415-867-5309', call_type: 'inbound' },
        },
        processJob: {
          transcriptOutput: 'caller zebulon quackenbush ssn 123-45-6789',
          transcript: {
            results: `my card is ${CARD.match(/.{4}/g)!.join(' ')} thanks`.split(' ').map((content, i) => ({
              type: 'word', start_time: i, end_time: i + 0.5, channel: 'channel_2', alternatives: [{ content, confidence: 0.9 }],
            })),
          },
        },
        utterances: [
          { text: 'My name is Zebulon Quackenbush. My social is 123-45', formattedText: 'My name is Zebulon Quackenbush.', speaker: 1 },
          { text: '-6789 and card 4539_5781_2345_6789, email zeb.quack@example.org', speaker: 1 },
        ],
        realTimeMessage: { ucid: 'u', text: `card=${CARD}`, fromNumber: '+1 415 867 5309', prompt: 'caller said ssn 123-45-6789', alert: 'zebulon quackenbush gave his card' },
        insights: [{ name: 'verification', response: 'caller gave 123-45-6789' }],
        analytics: { ani: '4158675309', caller: 'Zebulon Quackenbush', insights: [{ name: 'card', value: `card ${CARD}`, response_summary: 'ssn 123456789 given' }] },
        conversation: { ani: '(415) 867-5309', name: 'Zebulon Quackenbush' },
        json: JSON.stringify({ note: 'ssn 123-45-6789' }),
        details: 'caller zebulon quackenbush, card 4539 5781 2345 6789',
        message: 'reach me at 415-867-5309',
        notes: { free: ['card number 4539-5781-2345-6789 given by zebulon quackenbush'] },
        ...extra,
      });
      const cases: [string, object][] = [
        ['redactionRequest.types', { redactionRequest: { types: KINDS } }],
        ['campaign.enableTextRedaction alone means every kind', { campaign: { enableTextRedaction: true } }],
        ['a project that scrubs; the record says enableTextRedaction false', { redactionRequest: { sid: 'bank' }, campaign: { enableTextRedaction: false } }],
      ];
      for (const [label, extra] of cases) {
        const eventId = `leak-${crypto.randomUUID()}`;
        const res = await svc.request({ method: 'POST', url: '/system/cache/post-call', payload: record(eventId, extra) });
        assert.ok(res.statusCode === 200 || res.statusCode === 201, `${label}: ${res.statusCode} ${res.body}`);
        assertClean(`post-call (${label}) answer`, res.body);
        const back = await svc.request({ method: 'GET', url: `/system/cache/post-call/${eventId}` });
        assert.equal(back.statusCode, 200, back.body);
        assert.equal(json(back).eventId, eventId, 'identifiers are left as they are');
        assertClean(`post-call (${label}) read back`, back.body);
      }
      for (const res of [
        await svc.request({ method: 'POST', url: '/system/cache/post-call', payload: record('leak-unknown-kind', { redactionRequest: { types: ['SSN'] } }) }),
        await svc.request({ method: 'POST', url: '/system/cache/post-call', payload: record('leak-unknown-sid', { redactionRequest: { sid: 'no-such-project' } }) }),
      ]) {
        assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${res.statusCode}: ${res.body}`);
      }
      assertClean('/cache/list', (await svc.request({ method: 'GET', url: '/cache/list?limit=1000' })).body);
      assertClean('conversation events', (await svc.request({ method: 'GET', url: '/system/events?type=conversation&limit=1000' })).body);
      assertClean('stored rows', await allRows(svc, undefined, ['conversations']));
    });

    test('real-call: every field of a message, by every way of asking', async () => {
      const message = (ucid: string) => ({
        ucid,
        engagementId: ucid,
        text: `my name is zebulon quackenbush and my card is ${CARD}`,
        prompt: 'ask for ssn 123-45-6789',
        alert: 'zebulon quackenbush read card 4539 5781 2345 6789',
        insights: 'caller email zeb.quack@example.org',
        fromNumber: '415-867-5309',
        clientNumber: '(415) 867-5309',
      });
      const bodies: [string, object][] = [
        ['redactionRequest.types', { redactionRequest: { types: KINDS }, realTimeMessage: message('rt-1') }],
        ['campaign.enableTextRedaction', { campaign: { enableTextRedaction: true }, realTimeMessage: message('rt-2') }],
        ['a project that scrubs, named by the record', { redactionRequest: { sid: 'bank' }, realTimeMessage: message('rt-3') }],
      ];
      for (const [label, body] of bodies) {
        const res = await svc.request({ method: 'POST', url: '/cache/real-call', payload: body });
        assert.equal(res.statusCode, 200, `${label}: ${res.body}`);
        assertClean(`real-call (${label}) answer`, res.body);
        const key = (body as { realTimeMessage: { ucid: string } }).realTimeMessage.ucid;
        assertClean(`real-call (${label}) live`, (await svc.request({ method: 'GET', url: `/cache/live/${key}` })).body);
      }
      assertClean('/cache/list', (await svc.request({ method: 'GET', url: '/cache/list?limit=1000' })).body);
      assertClean('stored rows', await allRows(svc, undefined, ['live_messages']));
    });

    test('every stored row, the raw database and data files, and every log line at trace', async () => {
      assertClean('stored rows', await allRows(svc));
      assertClean('events', (await svc.request({ method: 'GET', url: '/system/events?limit=1000' })).body);
      // Let the outbox finish writing before reading the files: nothing left to send (state).
      await until(async () => {
        const counts = await svc.services.outbox.counts();
        return counts.pending === 0 && counts.sending === 0;
      }, 'the outbox to be idle');
      for (const [file, text] of dataFiles(svc.database.dataDir)) assertClean(`data file ${path.relative(svc.database.dataDir, file)}`, text);
      assert.ok(logLines.length > 0, 'logs were captured');
      assertClean('logs at trace', logLines.join('\n'));
    });
  });
}

const canHear = hasTool('ffmpeg') && hasFestivalVoice() && fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us');

describe('leak matrix: audio job', { skip: required(!canHear && 'needs ffmpeg, festival with the US HTS voice, and PocketSphinx') }, () => {
  let svc: TestService;
  let dir: string;
  let recording: string;
  const logLines: string[] = [];
  before(async () => {
    svc = await startTestService('sqlite', { logLines, logLevel: 'trace' });
    dir = tempDir();
    recording = speakFestival('my social security number is one two three four five six seven eight nine. thank you.', path.join(dir, 'ssn.wav'));
  });
  after(async () => {
    await svc.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('scrubaudio alone (every kind): text, audio both ways, data files, resubmit and logs hold no digit of the SSN', async () => {
    const original = fs.readFileSync(recording);
    const digest = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
    const submit = (fields: Record<string, string>) =>
      svc.request({ method: 'POST', url: '/asr/transcribe?wait=300', ...multipart(fields, [{ name: 'audio', filename: 'ssn.wav', content: original }]) });
    const res = await submit({ scrubaudio: 'true' });
    assert.equal(res.statusCode, 200, res.body);
    const job = json(res);
    assert.equal(job.status, 'completed', job.message);
    assert.equal(job.redactionStatus, 'completed');
    assert.ok(job.redaction.spans.some((s: { kind: string }) => s.kind === 'USSocialSecurityNumber'), JSON.stringify(job.redaction.spans));
    assertAllClean(await jobOutputs(svc, job.jobId));

    // The audio, asked for either way, is never the original; what is served holds none of the digits.
    for (const query of ['', '?redacted=true', '?redacted=false']) {
      const audio = await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/audio${query}` });
      assert.ok(audio.statusCode < 500, `${query}: ${audio.statusCode}`);
      if (audio.statusCode !== 200) continue;
      assert.notEqual(digest(audio.rawPayload), digest(original), `/audio${query} serves the unredacted original`);
      const served = path.join(dir, `served${query.replace(/\W/g, '_')}.wav`);
      fs.writeFileSync(served, audio.rawPayload);
      const heard = (await recognizeFile(served, {})).channels[0].words.map((w) => w.word).join(' ');
      for (const run of ['one two three', 'four five six', 'seven eight nine']) assert.ok(!heard.includes(run), `"${run}" audible in /audio${query}: ${heard}`);
    }
    for (const [file, text] of dataFiles(svc.database.dataDir)) {
      assert.notEqual(digest(Buffer.from(text, 'latin1')), digest(original), `the original is still on disk: ${file}`);
      assertClean(`data file ${file}`, text);
    }

    // A resubmit asking for nothing keeps the redaction.
    const again = await svc.request({ method: 'POST', url: '/asr/transcribe?wait=300', payload: { jobId: job.jobId, scrubaudio: false, scrubtext: false } });
    if (redactedOrRefused(again) === 'accepted') {
      const rerun = json(again);
      assert.equal(rerun.status, 'completed', rerun.message);
      assert.equal(rerun.redactionStatus, 'completed');
      assertAllClean(await jobOutputs(svc, job.jobId));
    }
    assertClean('logs at trace', logLines.join('\n'));
  });
});
