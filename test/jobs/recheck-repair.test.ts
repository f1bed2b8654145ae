// The re-recognition check that repairs (issue 31): a digit the first redaction left audible in the copy is
// heard again, the stretch around it is redacted (audio and every transcript shape) and the copy checked again;
// the job completes with the digit gone. With no widening allowed (SCRUBLINE_RECHECK_ROUNDS=0), the same job
// fails closed and keeps its redaction record (windows, what was heard as kinds, never a word), in SQLite and
// PostgreSQL. The recognizer here listens to the audio: a word is heard only where its samples are not silent,
// so what the copy says decides what the check hears (real ffmpeg, real redaction, real store).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { TRANSCRIPT_FORMATS } from '../../src/transcript/index.js';
import type { Transcript } from '../../src/transcript/types.js';
import { filePcm } from '../audio/dtmfSignals.js';
import { durationOf, ffmpeg, hasTool, speak, stereo, tempDir } from '../helpers/audio.js';
import { blobKeys } from '../helpers/blobs.js';
import { type Dialect, json, startTestService, type TestService } from '../helpers/harness.js';
import { transcribeAndWait } from '../helpers/jobs.js';
import { multipart } from '../helpers/multipart.js';
import type { SensitiveWindow } from '../../src/redact/windows/types.js';
import { required } from '../helpers/require.js';

const RATE = 8000;
const SECONDS = 5;

/** What is said, and when, on each channel of the test call (a tone stands for each word). */
const SAID: { channel: number; word: string; start: number; end: number }[] = [
  { channel: 0, word: 'hello', start: 0.2, end: 0.6 },
  { channel: 1, word: 'four', start: 1.1, end: 1.4 },
  { channel: 1, word: 'five', start: 1.5, end: 1.8 },
  // Just outside the marked window (1-2 s): the mark leaves it audible.
  { channel: 1, word: 'seven', start: 2.3, end: 2.6 },
  { channel: 1, word: 'thanks', start: 3.8, end: 4.3 },
];

type Said = { channel: number; word: string; start: number; end: number }[];

/** A recognizer that hears a word only where its samples are not silent (the redacted copy decides what it hears). */
function listeningRecognizer(log: string[], said: Said = SAID, seconds = SECONDS) {
  return async (file: string): Promise<Transcript> => {
    log.push(path.basename(file));
    const pcm = [filePcm(file, 0), filePcm(file, 1)];
    const audible = (w: Said[number]) => {
      const samples = pcm[w.channel].subarray(Math.round(w.start * RATE), Math.round(w.end * RATE));
      return samples.some((s) => Math.abs(s) > 100);
    };
    const heard = said.filter(audible);
    return {
      model: 'en-us:test', engine: 'test', language: 'en-us', audioSeconds: seconds, sourceSampleRate: RATE, processingSeconds: 0,
      channels: [0, 1].map((channel) => ({
        channel,
        words: heard.filter((w) => w.channel === channel).map((w) => ({ word: w.word, start: w.start, end: w.end, confidence: 1 })),
        segments: [],
      })),
    };
  };
}

const MARK = { start: 1, end: 2, channel: 1 };

async function submit(svc: TestService, file: string) {
  const res = await svc.request({
    method: 'POST',
    url: '/asr/transcribe?wait=120',
    ...multipart({ sensitiveWindows: JSON.stringify([MARK]), scrubsound: 'silence' }, [{ name: 'audio', filename: 'call.wav', content: fs.readFileSync(file) }]),
  });
  assert.equal(res.statusCode, 200, res.body);
  return json(res);
}

for (const dialect of ['sqlite', 'postgres'] as Dialect[]) {
  describe(`the re-recognition check widens the redaction over a digit it still hears (${dialect})`, { skip: required(!hasTool('ffmpeg') && 'needs ffmpeg') }, () => {
    let repairing: TestService;
    let strict: TestService;
    let dir: string;
    let file: string;
    const heardRepairing: string[] = [];
    const heardStrict: string[] = [];

    before(async () => {
      dir = tempDir('scrubline-recheck-');
      file = path.join(dir, 'call.wav');
      ffmpeg(['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=${RATE}:duration=${SECONDS}`, '-ac', '2', '-c:a', 'pcm_s16le', file]);
      repairing = await startTestService(dialect, { overrides: { recognize: listeningRecognizer(heardRepairing) } });
      strict = await startTestService(dialect, { env: { SCRUBLINE_RECHECK_ROUNDS: '0' }, overrides: { recognize: listeningRecognizer(heardStrict) } });
      // A project that knowingly turns the default number windows off (an admin's recorded lowering): what the text
      // rules and the windows miss is then the re-check's alone to catch.
      const published = await repairing.request({ method: 'POST', url: '/system/cache/v2/publish', payload: { data: JSON.stringify({ sid: 'windows-off', cueWindows: { enabled: false } }) } });
      assert.equal(published.statusCode, 200, published.body);
    });
    after(async () => {
      await repairing?.close();
      await strict?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    test('a digit left audible beside the window is widened over, then the copy checks clean: audio and every transcript shape agree', async () => {
      const job = await submit(repairing, file);
      assert.equal(job.status, 'completed', JSON.stringify(job));
      assert.equal(job.redactionStatus, 'completed');
      // Recognized once, then the copy twice: heard "seven", widened, heard nothing number-like.
      assert.equal(heardRepairing.length, 3, heardRepairing.join());
      const recheck = job.redaction.recheck;
      assert.equal(recheck.checked, true);
      assert.equal(recheck.converged, true);
      assert.deepEqual(recheck.rounds, [{ round: 1, heard: { digit: 1 }, widened: 1 }, { round: 2, heard: {}, widened: 0 }]);
      assert.equal(recheck.widened.length, 1);
      const [stretch] = recheck.widened;
      assert.deepEqual({ ...stretch, start: undefined, end: undefined }, { channel: 1, heard: { digit: 1 }, where: 'beside', round: 1, start: undefined, end: undefined });
      assert.ok(stretch.start <= 2.3 && stretch.end >= 2.6, JSON.stringify(stretch));
      assert.ok(stretch.end < 3.8, 'the widening stops well before the next word');
      assert.equal(recheck.digitsInWindows, 0);

      // Audio: the digit is silent now; the word after it and the other channel are as recorded.
      const copy = path.join(dir, `${job.jobId}.wav`);
      const res = await repairing.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/audio?redacted=true` });
      assert.equal(res.statusCode, 200);
      fs.writeFileSync(copy, res.rawPayload);
      const caller = filePcm(copy, 1);
      const original = filePcm(file, 1);
      for (let i = Math.round(2.3 * RATE); i < Math.round(2.6 * RATE); i++) assert.equal(caller[i], 0, `sample ${i} of the digit is not silenced`);
      for (let i = Math.round(3.8 * RATE); i < Math.round(4.3 * RATE); i++) assert.equal(caller[i], original[i], `sample ${i} after the digit changed`);
      assert.deepEqual(filePcm(copy, 0), filePcm(file, 0), "the agent's channel is untouched");
      // The record's audio spans hold the widened stretch too.
      assert.ok(job.redaction.audio.spans.some((s: any) => s.channel === 1 && s.start <= 2.3 && s.end >= 2.6), JSON.stringify(job.redaction.audio.spans));

      // Text: no shape says the digit; the word after it is kept.
      for (const format of TRANSCRIPT_FORMATS) {
        const r = await repairing.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/transcript?format=${format}` });
        assert.equal(r.statusCode, 200, r.body);
        const text = r.body.toLowerCase();
        for (const word of ['seven', 'four', 'five']) assert.ok(!text.includes(word), `${format} still says "${word}"`);
        assert.match(text, /thanks/, `${format} lost the word after the digit`);
        assert.match(text, /\[sensitive\]/);
      }

      // Muted speech per channel, stored with the job: the caller's four words, three of them muted.
      const stored = json(await repairing.request({ method: 'GET', url: `/asr/jobs/${job.jobId}` }));
      const report = stored.redaction.report;
      assert.deepEqual(report.map((r: any) => [r.channel, r.role]), [[0, 'agent'], [1, 'caller']]);
      assert.equal(report[0].mutedSeconds, 0);
      assert.equal(report[0].speechMutedShare, 0);
      assert.ok(Math.abs(report[1].speechSeconds - 1.4) < 0.01, JSON.stringify(report));
      assert.ok(Math.abs(report[1].speechMutedSeconds - 0.9) < 0.01, JSON.stringify(report));
      assert.ok(report[1].speechMutedShare > 0.6 && report[1].speechMutedShare < 0.7, JSON.stringify(report));
      assert.deepEqual(stored.redaction.recheck, recheck);
    });

    test('a job redacting a card in audio where recognition found none: the copy is listened to, the number read out is widened over', async () => {
      // "four five ... seven" is no card to the text rules, and the project turned the number windows off: no span,
      // no window. The check still hears a number.
      const before = heardRepairing.length;
      const res = await repairing.request({
        method: 'POST',
        url: '/asr/transcribe?wait=120',
        ...multipart({ scrubaudio: 'true', types: 'CreditCardNumber', scrubsound: 'silence', sid: 'windows-off' }, [{ name: 'audio', filename: 'call.wav', content: fs.readFileSync(file) }]),
      });
      const job = json(res);
      assert.equal(job.status, 'completed', res.body);
      assert.equal(heardRepairing.length - before, 3, 'recognized, the copy heard, widened, heard again');
      assert.deepEqual(job.redaction.windows.list, [], 'nothing was found to redact');
      const recheck = job.redaction.recheck;
      assert.equal(recheck.converged, true);
      assert.deepEqual(recheck.widened.map((w: any) => [w.channel, w.heard, w.where]), [[1, { digit: 3 }, 'elsewhere']]);
      assert.ok(recheck.widened[0].start <= 1.1 && recheck.widened[0].end >= 2.6 && recheck.widened[0].end < 3.8, JSON.stringify(recheck.widened));
      for (const format of TRANSCRIPT_FORMATS) {
        const text = (await repairing.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/transcript?format=${format}` })).body.toLowerCase();
        for (const word of ['four', 'five', 'seven']) assert.ok(!text.includes(word), `${format} still says "${word}"`);
        assert.match(text, /thanks/);
      }
      assert.ok(job.redaction.report[1].speechMutedShare > 0.6, JSON.stringify(job.redaction.report));
    });

    test('with no widening allowed the same job fails closed and keeps its redaction record: kinds and times, never a word', async () => {
      const job = await submit(strict, file);
      assert.equal(job.status, 'failed', JSON.stringify(job));
      assert.equal(job.redactionStatus, 'failed');
      assert.match(job.message, /still says a number/);
      assert.equal(heardStrict.length, 2, 'recognized once, the copy once');

      // Read back from the store: the record of what the redaction did and why it gave up.
      const stored = json(await strict.request({ method: 'GET', url: `/asr/jobs/${job.jobId}` }));
      const redaction = stored.redaction;
      assert.ok(redaction, JSON.stringify(stored));
      assert.deepEqual(redaction.windows.list, [{ channel: 1, start: 1, end: 2, kind: 'SENSITIVE', source: 'mark' }]);
      assert.equal(redaction.recheck.converged, false);
      assert.equal(redaction.recheck.maxRounds, 0);
      assert.deepEqual(redaction.recheck.widened, []);
      assert.deepEqual(redaction.recheck.unrepaired.map((s: any) => [s.channel, s.heard, s.where]), [[1, { digit: 1 }, 'beside']]);
      assert.equal(redaction.audio, undefined, 'no copy is named: none is kept');
      const all = JSON.stringify(stored).toLowerCase();
      for (const word of ['seven', 'four', 'five', 'thanks', 'hello']) assert.ok(!all.includes(word), `the failed job's record says "${word}"`);

      // No transcript, no copy: the original alone is kept (as for any failed redaction).
      const transcript = await strict.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/transcript?format=text` });
      assert.notEqual(transcript.statusCode, 200);
      const files = (await blobKeys(strict, `uploads/${job.jobId}/`)).map((key) => key.split('/').pop()!);
      assert.deepEqual(files, ['call.wav']);
      // The brief list stays brief.
      const listed = json(await strict.request({ method: 'GET', url: '/asr/jobs?limit=10' })).jobs.find((j: any) => j.jobId === job.jobId);
      assert.equal(listed.redaction, undefined);
    });
  });
}

// The same repair with the bundled engine on a spoken two-party call, 48 kHz Opus as contact centers record: the
// agent marks the first group of the card (pause/resume) and the caller reads one more group just after the mark.
// The first check hears those digits in the redacted copy; the check widens over them and completes.
const canSpeak = hasTool('ffmpeg') && hasTool('espeak-ng') && fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us');
const DIGIT_NAMES = new Set(['zero', 'oh', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine']);

describe('the bundled engine hears digits left beside a mark in a 48 kHz Opus call; the check widens over them and completes', { skip: required(!canSpeak && 'needs ffmpeg, espeak-ng and PocketSphinx') }, () => {
  let svc: TestService;
  let dir: string;
  let call: string;
  let mark: { start: number; end: number; channel: number };
  let outroStart: number;

  before(async () => {
    svc = await startTestService('sqlite');
    dir = tempDir('scrubline-recheck-engine-');
    const agent = speak('Thank you for calling. Can I have the long number on the front of your card please?', path.join(dir, 'agent.wav'));
    const first = speak('four five three nine', path.join(dir, 'first.wav'));
    const second = speak('six four six seven', path.join(dir, 'second.wav'));
    const outro = speak('Thank you, that was all I needed.', path.join(dir, 'outro.wav'));
    const lead = durationOf(agent) + 0.6;
    const markStart = lead;
    const markEnd = lead + durationOf(first);
    const gap = 0.4;
    const tail = 1.5;
    outroStart = markEnd + gap + durationOf(second) + tail;
    const silence = (d: number) => ['-f', 'lavfi', '-i', `anullsrc=r=16000:cl=mono:d=${d.toFixed(4)}`];
    const caller = path.join(dir, 'caller.wav');
    ffmpeg([...silence(lead), '-i', first, ...silence(gap), '-i', second, ...silence(tail), '-i', outro,
      '-filter_complex', '[0:a][1:a][2:a][3:a][4:a][5:a]concat=n=6:v=0:a=1[a]', '-map', '[a]', '-ar', '16000', '-c:a', 'pcm_s16le', caller]);
    call = stereo(agent, caller, path.join(dir, 'call.opus'), ['-ar', '48000', '-c:a', 'libopus', '-b:a', '64k']);
    mark = { start: Number(markStart.toFixed(3)), end: Number(markEnd.toFixed(3)), channel: 1 };
  });
  after(async () => {
    await svc?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('widened over the digits after the mark, converged; no digit in the caller\'s words; the widened audio is silent', async () => {
    const job = await transcribeAndWait(svc, call, { fields: { sensitiveWindows: JSON.stringify([mark]), scrubsound: 'silence' }, waitSeconds: 400 });
    assert.equal(job.redactionStatus, 'completed');
    const recheck = job.redaction.recheck;
    assert.equal(recheck.converged, true, JSON.stringify(recheck));
    assert.ok(recheck.widened.length >= 1, `the digits after the mark were heard and widened over: ${JSON.stringify(recheck)}`);
    assert.ok(recheck.widened.some((w: any) => w.heard.digit > 0 && w.channel === 1 && w.start < outroStart && w.end > mark.end), JSON.stringify(recheck.widened));
    for (const w of recheck.widened) assert.ok(w.end < outroStart + 0.5, `a stretch reaches into the caller's thanks: ${JSON.stringify(w)}`);

    // The caller's words carry no digit in any shape; the thanks after them is kept.
    const results: any[] = json(await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/transcript?format=transcript` })).results;
    const callerWords = results.filter((r) => r.type === 'word' && r.channel === 'channel_2').map((r) => String(r.alternatives[0].content).toLowerCase());
    assert.deepEqual(callerWords.filter((w) => DIGIT_NAMES.has(w) || /\d/.test(w)), [], callerWords.join(' '));
    for (const format of TRANSCRIPT_FORMATS) {
      const text = (await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/transcript?format=${format}` })).body.toLowerCase().replace(/[^a-z0-9]+/g, ' ');
      for (const pair of ['six four', 'four six', 'six seven', 'four five', 'three nine']) assert.ok(!text.includes(pair), `${format}: "${pair}" survived`);
    }

    // The copy (Opus again) is near silent inside every widened stretch on the caller's channel.
    const res = await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/audio?redacted=true` });
    assert.equal(res.statusCode, 200);
    const copy = path.join(dir, 'copy.opus');
    fs.writeFileSync(copy, res.rawPayload);
    const caller = filePcm(copy, 1, RATE);
    for (const w of recheck.widened) {
      const inner = caller.subarray(Math.round((w.start + 0.05) * RATE), Math.round((w.end - 0.05) * RATE));
      const rms = Math.sqrt(inner.reduce((t, s) => t + s * s, 0) / Math.max(inner.length, 1));
      assert.ok(rms < 50, `widened stretch ${JSON.stringify(w)} is not silent (rms ${rms.toFixed(1)})`);
    }
  });
});

// Payment segments that stay segments: the caller's channel is muted over the payment (the cue and the card read
// out) and over a stray number window half a minute later, each on its own; the caller's talk between them is
// kept, and the share of speech muted per channel is in the record.
const CALL_SECONDS = 40;
const CHATTER: Said = Array.from({ length: 14 }, (_, i) => ({ channel: 1, word: ['well', 'thanks', 'sure', 'okay'][i % 4], start: 6 + i * 2, end: 6.8 + i * 2 }));
const PAYMENT_CALL: Said = [
  { channel: 0, word: 'card', start: 1, end: 1.5 },
  { channel: 1, word: 'four', start: 2, end: 2.3 },
  { channel: 1, word: 'five', start: 2.4, end: 2.7 },
  ...CHATTER,
  { channel: 1, word: 'order', start: 35, end: 35.6 },
  { channel: 1, word: 'seven', start: 36, end: 36.4 },
  { channel: 1, word: 'two', start: 36.5, end: 37 },
];
const FOUND: SensitiveWindow[] = [
  { channel: 0, start: 1, end: 1.5, kind: 'CreditCardNumber', source: 'cue' },
  { channel: 1, start: 2, end: 2.7, kind: 'CreditCardNumber', source: 'number' },
  { channel: 1, start: 36, end: 37, kind: 'CreditCardNumber', source: 'number' },
];

for (const dialect of ['sqlite', 'postgres'] as Dialect[]) {
  describe(`payment-segment mode keeps to the payment; muted speech is reported per channel (${dialect})`, { skip: required(!hasTool('ffmpeg') && 'needs ffmpeg') }, () => {
    let svc: TestService;
    let dir: string;
    let file: string;

    before(async () => {
      dir = tempDir('scrubline-payment-');
      file = path.join(dir, 'call.wav');
      ffmpeg(['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=${RATE}:duration=${CALL_SECONDS}`, '-ac', '2', '-c:a', 'pcm_s16le', file]);
      svc = await startTestService(dialect, { overrides: { recognize: listeningRecognizer([], PAYMENT_CALL, CALL_SECONDS), findWindows: () => FOUND } });
      const publish = await svc.request({
        method: 'POST',
        url: '/system/cache/v2/publish',
        payload: { data: JSON.stringify({ sid: 'payments', scrubaudio: true, scrubtext: true, windowMode: 'payment-segment', rules: [{ name: 'CreditCardNumber', active: true }] }) },
      });
      assert.equal(publish.statusCode, 200, publish.body);
    });
    after(async () => {
      await svc?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    test("the stray number window 33 s after the payment is a segment of its own: the caller's talk between is kept", async () => {
      const res = await svc.request({
        method: 'POST',
        url: '/asr/transcribe?wait=120',
        ...multipart({ sid: 'payments', scrubsound: 'silence' }, [{ name: 'audio', filename: 'call.wav', content: fs.readFileSync(file) }]),
      });
      const job = json(res);
      assert.equal(job.status, 'completed', res.body);
      const windows = job.redaction.windows;
      assert.equal(windows.mode, 'payment-segment');
      assert.deepEqual(windows.list.filter((w: any) => w.source === 'mode').map((w: any) => [w.channel, w.start, w.end]), [[1, 1, 2.7], [1, 36, 37]]);
      assert.equal(job.redaction.recheck.converged, true, JSON.stringify(job.redaction.recheck));

      // The caller's talk between the two is as recorded, and in the transcript.
      const res2 = await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/audio?redacted=true` });
      const copy = path.join(dir, 'copy.wav');
      fs.writeFileSync(copy, res2.rawPayload);
      const caller = filePcm(copy, 1);
      const original = filePcm(file, 1);
      for (let i = Math.round(3.5 * RATE); i < Math.round(34.5 * RATE); i++) assert.equal(caller[i], original[i], `caller sample at ${(i / RATE).toFixed(3)} s changed`);
      const text = (await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/transcript?format=text` })).body.toLowerCase();
      for (const word of ['well', 'thanks', 'sure', 'okay', 'order']) assert.match(text, new RegExp(word));
      for (const word of ['four', 'five', 'seven', 'two']) assert.ok(!text.includes(word), `"${word}" survived`);

      // Per channel, read back from the store: the caller's muted speech is the card and the stray digits only.
      const stored = json(await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}` }));
      const [agent, callerReport] = stored.redaction.report;
      assert.equal(agent.role, 'agent');
      assert.equal(agent.speechMutedShare, 1, "the agent's one word is the cue, redacted as its window");
      assert.equal(callerReport.role, 'caller');
      // Speech: 0.6 s of digits + 11.2 s of talk + 0.6 + 0.9 s at the end; muted: the digits (1.5 s).
      assert.ok(Math.abs(callerReport.speechSeconds - 13.3) < 0.01, JSON.stringify(callerReport));
      assert.ok(Math.abs(callerReport.speechMutedSeconds - 1.5) < 0.01, JSON.stringify(callerReport));
      assert.ok(callerReport.speechMutedShare < 0.12, JSON.stringify(callerReport));
    });
  });
}
