// Spoken numbers with the DEFAULTS (issue 31): short clips of card, SSN, account, CVV and expiry numbers read by the
// project's voices on a noisy 8 kHz line (test/helpers/spokenNumbers.ts) go through a real service with only
// scrubtext and kinds asked, no cueWindows: no output shows a run of more than 4 of a seeded number's digits (as
// numerals, digit words or the look-alikes the engine hears: "to", "for", "oh", ...), in every redacted transcript
// shape, the job record, its events, its stored rows, its notification and the logs at trace. An ordinary sentence
// keeps its words. On the code before issue 31 the first clip left 5 digits of its card in the text (no window ran).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { hasFestivalVoice, hasTool, tempDir } from '../helpers/audio.js';
import { json, startTestService, type TestService } from '../helpers/harness.js';
import { multipart } from '../helpers/multipart.js';
import { until } from '../helpers/poll.js';
import { required } from '../helpers/require.js';
import { longestLeak, makeClip, NUMBER_CLIPS, ORDINARY_CLIP } from '../helpers/spokenNumbers.js';

const canRun = hasTool('ffmpeg') && hasTool('espeak-ng') && hasFestivalVoice() && fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us');
const MAX_DIGITS = 4;

/** An output as the text a reader sees: JSON numbers, timestamps and cue timings (not words) taken out. */
function wordsOnly(text: string): string {
  return text
    .replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z?/g, ' ')
    .replace(/\d{2}:\d{2}:\d{2}[.,]\d{3}/g, ' ')
    .replace(/(\\?"[A-Za-z_]+\\?"\s*:\s*)-?\d+(\.\d+)?(e-?\d+)?/g, '$1 ')
    .replace(/([[,]\s*)-?\d+(\.\d+)?(?=\s*[,\]])/g, '$1 ');
}

function assertNoRun(where: string, text: string, numbers: readonly string[]) {
  const clean = wordsOnly(text);
  for (const n of numbers) {
    const run = longestLeak(clean, n);
    assert.ok(run <= MAX_DIGITS, `${where} shows ${run} digits in a row of ${n}`);
  }
}

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
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, bodies, close: () => new Promise((r) => server.close(r)) };
}

describe('spoken numbers with the defaults', { skip: required(!canRun && 'needs ffmpeg, espeak-ng, festival with the US HTS voice, and PocketSphinx') }, () => {
  const dir = tempDir('scrubline-defaults-');
  const logLines: string[] = [];
  let svc: TestService;
  let hook: Awaited<ReturnType<typeof receiver>>;
  before(async () => {
    svc = await startTestService('sqlite', { logLines, logLevel: 'trace', env: { SCRUBLINE_WEBHOOK_ALLOW: '127.0.0.0/8' } });
    hook = await receiver();
  });
  after(async () => {
    await hook.close();
    await svc.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function submit(file: string, fields: Record<string, string>) {
    const res = await svc.request({
      method: 'POST',
      url: '/asr/transcribe?wait=300',
      ...multipart({ ...fields, notification: JSON.stringify({ url: hook.url }) }, [{ name: 'file', filename: 'call.wav', content: fs.readFileSync(file), type: 'audio/wav' }]),
    });
    assert.equal(res.statusCode, 200, res.body);
    const job = json(res);
    assert.equal(job.status, 'completed', job.message);
    assert.equal(job.redactionStatus, 'completed');
    return job;
  }

  /** Every text output of a job: its redacted transcript shapes, record, events, stored rows, notification. */
  async function outputs(jobId: string): Promise<[string, string][]> {
    const out: [string, string][] = [];
    const get = async (url: string) => out.push([url, (await svc.request({ method: 'GET', url })).body]);
    await get(`/asr/jobs/${jobId}`);
    for (const format of ['vendorA', 'vendorB', 'transcript', 'utterances', 'text', 'srt', 'vtt']) await get(`/asr/jobs/${jobId}/transcript?format=${format}&redacted=true`);
    await get(`/system/events?subject=${jobId}`);
    const db = svc.services.store.database.db as any;
    for (const [table, column] of [['jobs', 'id'], ['job_results', 'job_id'], ['events', 'subject'], ['deliveries', 'job_id']]) {
      out.push([`stored ${table}`, JSON.stringify(await db.selectFrom(table).selectAll().where(column, '=', jobId).execute())]);
    }
    await until(() => hook.bodies.some((b) => b.includes(jobId)), 'the job notification');
    out.push(['notification', hook.bodies.filter((b) => b.includes(jobId)).join('\n')]);
    return out;
  }

  // Half the clips ask for the one kind (as the caller did), half for every kind.
  NUMBER_CLIPS.forEach((clip, i) => {
    test(`${clip.name}: no output shows more than ${MAX_DIGITS} digits of a seeded number`, async () => {
      const types = i % 2 === 0 ? (clip.numbers[0].length === 9 ? 'USSocialSecurityNumber' : 'CreditCardNumber') : 'all';
      const job = await submit(makeClip(dir, clip), { scrubtext: 'true', types });
      for (const [where, text] of await outputs(job.jobId)) assertNoRun(`${clip.name}: ${where}`, text, clip.numbers);
    });
  });

  test('the logs at trace show no run of a seeded number', () => {
    assert.ok(logLines.length > 0, 'logs were captured');
    for (const clip of NUMBER_CLIPS) assertNoRun('logs at trace', logLines.join('\n'), clip.numbers);
  });

  test('an ordinary sentence with "for", "to" and "one" in it keeps all its words', async () => {
    const job = await submit(makeClip(dir, { ...ORDINARY_CLIP, noise: 0.015 }), { scrubtext: 'true', types: 'all' });
    const text = async (redacted: boolean) => (await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/transcript?format=text&redacted=${redacted}` })).body;
    const words = (t: string) => t.toLowerCase().split(/\s+/).filter(Boolean);
    const [redacted, plain] = [await text(true), await text(false)];
    assert.ok(words(plain).length >= 8, `recognized: ${plain}`);
    assert.deepEqual(words(redacted), words(plain), 'no word was masked');
  });
});
