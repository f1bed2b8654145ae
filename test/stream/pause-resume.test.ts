// Windows an agent desktop marks live (issue 17): a card number read between `pause` and `resume` on a stream
// with no redaction rules at all. Only the window redacts it: no message carries a digit, the finals show the
// kind's mask, and the after-call job applies the window as a client mark (report, silenced audio inside,
// untouched audio outside). A stream that ends paused closes its window at the end; bad control messages are
// refused with a reason (a pause ends the stream, a resume does not). Real socket, real engine; no timing asserted.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { encodeFile, streamAudio, type StreamResult } from '../../examples/stream-client.js';
import { installedModels } from '../../src/engine/models.js';
import { filePcm } from '../audio/dtmfSignals.js';
import { durationOf, ffmpeg, hasFestivalVoice, hasTool, speakFestival, tempDir } from '../helpers/audio.js';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';
import { until } from '../helpers/poll.js';
import { required } from '../helpers/require.js';

const skip = required(
  !hasTool('ffmpeg') || !hasFestivalVoice() ? "ffmpeg and festival's US voice are needed" : !installedModels().some((m) => m.name === 'en-us:wideband') ? 'the PocketSphinx model is not installed' : false,
);
const RATE = 16000;
const DIGITS = /\b(zero|oh|one|two|three|four|five|six|seven|eight|nine)\b|[0-9]/;
const GAP = 1.2;

const realTime = (r: StreamResult) => r.messages.filter((m) => m.message.type === 'realTimeMessage').map((m) => m.message);
const finals = (r: StreamResult) => realTime(r).filter((m) => m.realTimeMessage.isFinal);
const of = (r: StreamResult, type: string) => r.messages.filter((m) => m.message.type === type).map((m) => m.message);

const dialect = (await dialects()).at(-1)!;

describe(`pause / resume on a live stream (${dialect})`, { skip }, () => {
  let svc: TestService;
  let url: string;
  let dir: string;
  /** intro, a gap, the card number, a gap, outro: 16 kHz mono. */
  let call: { file: string; digitsStart: number; digitsEnd: number };

  before(async () => {
    svc = await startTestService(dialect, { env: { SCRUBLINE_MAX_STREAMS: '1' } });
    url = (await svc.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
    dir = tempDir('scrubline-pause-');
    const intro = speakFestival('hello, this is the billing line. how can I help you?', path.join(dir, 'intro.wav'));
    const digits = speakFestival('four one one one, one one one one, one one one one, one one one one.', path.join(dir, 'digits.wav'));
    const outro = speakFestival('thank you very much, goodbye.', path.join(dir, 'outro.wav'));
    const silence = ['-f', 'lavfi', '-i', `anullsrc=r=${RATE}:cl=mono:d=${GAP}`];
    const file = path.join(dir, 'call.wav');
    ffmpeg(['-i', intro, ...silence, '-i', digits, ...silence, '-i', outro,
      '-filter_complex', '[0:a]aresample=16000[a0];[2:a]aresample=16000[a2];[4:a]aresample=16000[a4];[a0][1:a][a2][3:a][a4]concat=n=5:v=0:a=1[a]', '-map', '[a]', '-ar', String(RATE), '-ac', '1', '-c:a', 'pcm_s16le', file]);
    const digitsStart = durationOf(intro) + GAP;
    call = { file, digitsStart, digitsEnd: digitsStart + durationOf(digits) };
  });
  after(async () => {
    await svc?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a card number read inside pause/resume: no message carries a digit; the job applies the window as a mark, its audio silenced, the rest untouched', async () => {
    const { audio, bytesPerSecond } = encodeFile(call.file, 'pcm_s16le', RATE, 1);
    const pauseAt = call.digitsStart - GAP / 2;
    const resumeAt = call.digitsEnd + GAP / 2;
    const result = await streamAudio({
      url: `${url}/asr/stream`,
      // No kinds, no project: nothing but the window redacts the digits.
      start: { sampleRate: RATE, encoding: 'pcm_s16le', scrubsound: 'silence' },
      audio,
      bytesPerSecond,
      pace: 2,
      controls: [
        { atSeconds: pauseAt, message: { type: 'pause', kind: 'CreditCardNumber' } },
        { atSeconds: resumeAt, message: { type: 'resume' } },
      ],
    });
    assert.equal(result.closeCode, 1000, result.closeReason);
    assert.deepEqual(result.started!.redaction.kinds, [], 'no rule redacts in flight');
    const [paused] = of(result, 'paused');
    const [resumed] = of(result, 'resumed');
    assert.deepEqual([paused.kind, paused.channels, resumed.channels], ['CreditCardNumber', [0], [0]]);
    // The window's times are the audio sent before each control message (the client sends them between frames).
    assert.ok(paused.at[0] >= pauseAt && paused.at[0] < pauseAt + 0.11, `paused at ${paused.at[0]} s`);
    assert.ok(resumed.at[0] >= resumeAt && resumed.at[0] < resumeAt + 0.11, `resumed at ${resumed.at[0]} s`);

    const all = realTime(result);
    const said = finals(result).map((m) => m.realTimeMessage.text).join(' | ');
    for (const m of all) {
      assert.doesNotMatch(m.realTimeMessage.text, DIGITS, `message ${m.sequence} (${m.realTimeMessage.isFinal ? 'final' : 'partial'}): ${m.realTimeMessage.text}`);
      for (const w of m.words ?? []) assert.doesNotMatch(w.word, DIGITS);
    }
    assert.match(said, /\[CREDIT_CARD_NUMBER\]/, `the finals show the kind's mask where the card was read: ${said}`);
    assert.match(said, /billing/, `words before the window are sent: ${said}`);
    assert.match(said, /goodbye|thank/, `words after the window are sent: ${said}`);
    const masked = finals(result).filter((m) => m.redacted?.includes('CreditCardNumber'));
    assert.ok(masked.length > 0);
    for (const m of masked) {
      for (const w of m.words.filter((x: any) => x.word === '[CREDIT_CARD_NUMBER]')) assert.ok(w.end > paused.at[0] && w.start < resumed.at[0], 'masks only inside the window');
    }
    for (const m of partials(result)) assert.ok(m.realTimeMessage.messageEndTime <= paused.at[0] || m.realTimeMessage.messageStartTime >= resumed.at[0], `no partial from inside the window: ${JSON.stringify(m.realTimeMessage)}`);
    const window = { start: paused.at[0], end: resumed.at[0], channel: 0, kind: 'CreditCardNumber' };
    assert.deepEqual(result.summary!.sensitiveWindows, [window]);

    // The after-call job: the window as a client mark, in the report and in the audio.
    const jobId = result.summary!.jobId;
    assert.ok(jobId, result.summary!.jobError);
    const job = await until(async () => {
      const j = json(await svc.request({ method: 'GET', url: `/asr/jobs/${jobId}` }));
      return ['completed', 'failed'].includes(j.status) ? j : undefined;
    }, 'the after-call job to finish', 300_000);
    assert.equal(job.status, 'completed', JSON.stringify(job));
    assert.equal(job.redactionStatus, 'completed');
    assert.equal(job.redaction.windows.bySource.mark, 1, JSON.stringify(job.redaction.windows));
    assert.deepEqual(job.redaction.windows.list.filter((w: any) => w.source === 'mark'), [{ ...window, source: 'mark' }]);
    assert.equal(job.redaction.recheck.digitsInWindows, 0);

    const res = await svc.request({ method: 'GET', url: `/asr/jobs/${jobId}/audio?redacted=true` });
    assert.equal(res.statusCode, 200, res.body);
    const copyFile = path.join(dir, 'redacted.wav');
    fs.writeFileSync(copyFile, res.rawPayload);
    const copy = filePcm(copyFile, 0);
    const sent = new Int16Array(audio.buffer.slice(audio.byteOffset, audio.byteOffset + audio.length));
    assert.equal(copy.length, sent.length, 'the recording is the audio sent, sample for sample');
    let speech = 0;
    for (let i = Math.ceil(window.start * RATE); i < Math.floor(window.end * RATE); i++) {
      if (sent[i] !== 0) speech++;
      if (copy[i] !== 0) assert.fail(`sample ${i} (${(i / RATE).toFixed(3)} s) inside the window is ${copy[i]}, not silenced`);
    }
    assert.ok(speech > RATE, 'the window held the spoken card number');
    const spans: { start: number; end: number }[] = job.redaction.audio.spans;
    const inside = (i: number) => spans.some((s) => i >= Math.floor(s.start * RATE) && i < Math.ceil(s.end * RATE));
    let compared = 0;
    for (let i = 0; i < sent.length; i++) {
      if (inside(i)) continue;
      compared++;
      if (copy[i] !== sent[i]) assert.fail(`sample ${i} (${(i / RATE).toFixed(3)} s) changed outside the redacted spans`);
    }
    assert.ok(compared > sent.length - (window.end - window.start + 2) * RATE, `${compared} samples outside compared`);
  });

  test('a stream that ends paused: the window closes at the end of the audio, in the summary and the job', async () => {
    const { audio, bytesPerSecond } = encodeFile(call.file, 'pcm_s16le', RATE, 1);
    const part = audio.subarray(0, Math.round(call.digitsEnd * RATE) * 2);
    const result = await streamAudio({
      url: `${url}/asr/stream`,
      start: { sampleRate: RATE, encoding: 'pcm_s16le', partials: false },
      audio: part,
      bytesPerSecond,
      pace: 0,
      controls: [{ atSeconds: call.digitsStart - 0.3, message: { type: 'pause' } }],
    });
    assert.equal(result.closeCode, 1000, result.closeReason);
    for (const m of realTime(result)) assert.doesNotMatch(m.realTimeMessage.text, DIGITS, m.realTimeMessage.text);
    const [paused] = of(result, 'paused');
    const windows = result.summary!.sensitiveWindows;
    assert.equal(windows.length, 1, JSON.stringify(windows));
    assert.deepEqual({ ...windows[0], end: undefined }, { start: paused.at[0], end: undefined, channel: 0 }, 'SENSITIVE (no kind)');
    assert.ok(Math.abs(windows[0].end - result.summary!.audioSeconds) <= 0.001, `closed at the end of the audio: ${JSON.stringify(windows)}, ${result.summary!.audioSeconds} s`);
    const row = await svc.services.store.jobs.get(result.summary!.jobId);
    assert.deepEqual(JSON.parse(row!.params).sensitiveWindows, windows, 'the job was asked for the same window');
  });

  test('bad control messages: a resume with nothing open is refused and the stream goes on; a pause naming no kind ends it', async () => {
    const { audio, bytesPerSecond } = encodeFile(call.file, 'pcm_s16le', RATE, 1);
    const part = audio.subarray(0, RATE * 2 * 2);
    const goesOn = await streamAudio({
      url: `${url}/asr/stream`,
      start: { sampleRate: RATE, encoding: 'pcm_s16le', job: false },
      audio: part,
      bytesPerSecond,
      pace: 0,
      controls: [
        { atSeconds: 0.5, message: { type: 'resume' } },
        { atSeconds: 0.6, message: { type: 'resume', channel: 1 } },
      ],
    });
    assert.equal(goesOn.closeCode, 1000, goesOn.closeReason);
    const errors = of(goesOn, 'error');
    assert.deepEqual(errors.map((e) => [e.status, e.control, e.closing]), [[409, 'resume', false], [400, 'resume', false]]);
    assert.match(errors[1].detail, /no channel 1/);
    assert.equal(goesOn.summary!.audioSeconds, 2, 'all the audio was taken after the refusals');

    for (const [message, status, pattern] of [
      [{ type: 'pause', kind: 'CardNumberz' }, 400, /"CardNumberz" is not an entity kind/],
      [{ type: 'pause', channel: 1 }, 400, /no channel 1/],
      [{ type: 'pause', reason: 'x' }, 400, /pause message is invalid/],
    ] as const) {
      const ended = await streamAudio({ url: `${url}/asr/stream`, start: { sampleRate: RATE, encoding: 'pcm_s16le', job: false }, audio: part, bytesPerSecond, pace: 0, controls: [{ atSeconds: 0.5, message }] });
      const error = of(ended, 'error')[0];
      assert.ok(error, JSON.stringify(message));
      assert.deepEqual([error.status, error.control], [status, 'pause']);
      assert.match(error.detail, pattern);
      // Ended as a call (the summary, close 1000), never a crash, and before all the audio was taken.
      assert.equal(ended.closeCode, 1000, ended.closeReason);
      assert.ok(ended.summary!.audioSeconds < 2, `${ended.summary!.audioSeconds} s taken`);
      assert.equal(of(ended, 'paused').length, 0);
    }
  });
});

function partials(r: StreamResult) {
  return realTime(r).filter((m) => !m.realTimeMessage.isFinal);
}
