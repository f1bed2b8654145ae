// Live streams end to end over a real socket (GET /asr/stream and /asr/stream/twilio) with the real engine:
// partials and finals from dev audio and from an 8 kHz mu-law two-track call (also in the Twilio format), a
// spoken SSN and card number that no message carries, refusal at capacity with /asr/maxstreamscheck's figures,
// and the after-call job of a client that vanished mid-call. No timing is asserted: the client paces its audio,
// the assertions are on what arrives.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import { encodeFile, streamAudio, type StreamResult } from '../../examples/stream-client.js';
import { installedModels } from '../../src/engine/models.js';
import { devAudio, hasFestivalVoice, hasTool, speakFestival, tempDir } from '../helpers/audio.js';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';
import { until } from '../helpers/poll.js';
import { required } from '../helpers/require.js';

const skip = required(
  !hasTool('ffmpeg') || !hasFestivalVoice() ? "ffmpeg and festival's US voice are needed" : !installedModels().some((m) => m.name === 'en-us:wideband') ? 'the PocketSphinx model is not installed' : false,
);
const DIGITS = /\b(zero|oh|one|two|three|four|five|six|seven|eight|nine)\b|[0-9]/;

const finals = (r: StreamResult, channel?: number) =>
  r.messages.filter((m) => m.message.type === 'realTimeMessage' && m.message.realTimeMessage.isFinal && (channel === undefined || m.message.channel === channel)).map((m) => m.message);
const partials = (r: StreamResult) => r.messages.filter((m) => m.message.type === 'realTimeMessage' && !m.message.realTimeMessage.isFinal).map((m) => m.message);

const dialect = (await dialects()).at(-1)!;

describe(`live streams (${dialect})`, { skip }, () => {
  let svc: TestService;
  let url: string;
  let dir: string;
  before(async () => {
    // One stream per process at a time: the capacity test fills it; the others run one after another.
    svc = await startTestService(dialect, { env: { SCRUBLINE_MAX_STREAMS: '1' } });
    const address = await svc.app.listen({ port: 0, host: '127.0.0.1' });
    url = address.replace(/^http/, 'ws');
    dir = tempDir('scrubline-stream-');
  });
  after(async () => {
    await svc.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('dev audio in 100 ms frames: partials while speaking, finals with word times, sequence numbers in order, a summary naming the job', async () => {
    const file = devAudio('audio/jfk.wav');
    assert.ok(file, 'the dev audio is vendored');
    const { audio, bytesPerSecond } = encodeFile(file, 'pcm_s16le', 16000, 1);
    const result = await streamAudio({ url: `${url}/asr/stream`, start: { sampleRate: 16000, encoding: 'pcm_s16le', engagementId: 'eng-jfk', agentId: 'a-7' }, audio, bytesPerSecond, pace: 2 });
    assert.equal(result.closeCode, 1000, result.closeReason);
    assert.ok(result.started, 'started');
    assert.ok(partials(result).length > 0, 'partials arrived');
    const f = finals(result);
    assert.ok(f.length > 0, 'finals arrived');
    const text = f.map((m) => m.realTimeMessage.text).join(' ');
    for (const word of ['fellow', 'americans', 'country']) assert.match(text, new RegExp(`\\b${word}\\b`), `"${word}" in the finals: ${text}`);
    for (const m of f) {
      assert.equal(m.realTimeMessage.engagementId, 'eng-jfk');
      assert.equal(m.realTimeMessage.agentId, 'a-7');
      assert.ok(m.realTimeMessage.messageEndTime > m.realTimeMessage.messageStartTime);
      for (const w of m.words) assert.ok(w.start >= m.realTimeMessage.messageStartTime - 1e-6 && w.end <= m.realTimeMessage.messageEndTime + 1e-6, 'word times inside the message');
    }
    const sequences = result.messages.filter((m) => m.message.type === 'realTimeMessage').map((m) => m.message.sequence);
    assert.deepEqual(sequences, sequences.map((_, i) => i + 1), 'sequence numbers 1, 2, 3, ...');
    assert.ok(result.summary?.jobId, 'the summary names the after-call job');
    assert.equal(result.summary!.messages, sequences.length);
    const job = await until(async () => {
      const j = await svc.services.store.jobs.get(result.summary!.jobId);
      return j && ['completed', 'failed'].includes(j.status) ? j : undefined;
    }, 'the after-call job to finish');
    assert.equal(job.status, 'completed', job.last_error ?? '');
    assert.ok(Math.abs((job.audio_seconds ?? 0) - 11) < 0.5, `the job has the call's audio (${job.audio_seconds} s)`);
  });

  test('a spoken SSN and card number with an active real_time rule: no message carries the digits; the finals show the masks', async () => {
    const published = await svc.request({
      method: 'POST',
      url: '/system/cache/v2/publish',
      payload: {
        data: JSON.stringify({
          sid: 'live-billing',
          name: 'Live billing',
          active: true,
          rules: [
            { name: 'USSocialSecurityNumber', active: true, mask_type: 'Placeholder', setting: '[SSN]', real_time: true },
            { name: 'CreditCardNumber', active: true, mask_type: 'Placeholder', setting: '[CARD]', real_time: true },
          ],
        }),
      },
    });
    assert.equal(published.statusCode, 200, published.body);
    const wav = speakFestival(
      'my social security number is one two three, four five, six seven eight nine. and my card number is four one one one, one one one one, one one one one, one one one one. thank you.',
      path.join(dir, 'numbers.wav'),
    );
    const { audio, bytesPerSecond } = encodeFile(wav, 'pcm_s16le', 16000, 1);
    const result = await streamAudio({ url: `${url}/asr/stream`, start: { sampleRate: 16000, encoding: 'pcm_s16le', sid: 'live-billing', ucid: 'u-1' }, audio, bytesPerSecond, pace: 2 });
    assert.equal(result.closeCode, 1000, result.closeReason);
    assert.deepEqual(result.started!.redaction.kinds, ['USSocialSecurityNumber', 'CreditCardNumber']);
    const all = result.messages.filter((m) => m.message.type === 'realTimeMessage');
    assert.ok(all.length > 0);
    for (const { message } of all) {
      assert.doesNotMatch(message.realTimeMessage.text, DIGITS, `message ${message.sequence} (${message.realTimeMessage.isFinal ? 'final' : 'partial'}) shows no digit: ${message.realTimeMessage.text}`);
      for (const w of message.words ?? []) assert.doesNotMatch(w.word, DIGITS);
    }
    const text = finals(result).map((m) => m.realTimeMessage.text).join(' ');
    assert.match(text, /\[SSN\]|\[CARD\]/, `the finals show the masks: ${text}`);
    assert.ok(finals(result).some((m) => m.redacted?.length > 0), 'finals say which kinds they masked');
  });

  test('a card number read alone, which the engine breaks into pieces no recognizer takes for a card: after its cue no digit goes out', async () => {
    // Without the number cue this reads back as "... four land mine mine ... one" and its digit words went out.
    const wav = speakFestival('my card number is four five three two, zero one five one, one two eight three, zero three six six. thank you.', path.join(dir, 'card-alone.wav'));
    const { audio, bytesPerSecond } = encodeFile(wav, 'pcm_s16le', 16000, 1);
    const result = await streamAudio({ url: `${url}/asr/stream`, start: { sampleRate: 16000, encoding: 'pcm_s16le', sid: 'live-billing' }, audio, bytesPerSecond, pace: 2 });
    assert.equal(result.closeCode, 1000, result.closeReason);
    const all = result.messages.filter((m) => m.message.type === 'realTimeMessage');
    const said = finals(result).map((m) => m.realTimeMessage.text).join(' | ');
    assert.match(said, /card/, `the cue was heard: ${said}`);
    for (const { message } of all) {
      assert.doesNotMatch(message.realTimeMessage.text, DIGITS, `message ${message.sequence} (${message.realTimeMessage.isFinal ? 'final' : 'partial'}) shows no digit: ${message.realTimeMessage.text}`);
      for (const w of message.words ?? []) assert.doesNotMatch(w.word, DIGITS);
    }
    assert.match(said, /\[CARD\]/, `the finals show the mask: ${said}`);
    // The after-call job (recognized again from the recording) runs with the stream's cue windows: its text holds
    // no digit either.
    const jobId = result.summary!.jobId as string;
    const job = await until(async () => {
      const row = await svc.services.store.jobs.get(jobId);
      return row && ['completed', 'failed'].includes(row.status) ? row : undefined;
    }, 'the after-call job');
    assert.equal(job.status, 'completed', job.last_error ?? '');
    assert.equal(JSON.parse(job.params).cueWindows, true);
    const text = (await svc.request({ method: 'GET', url: `/asr/jobs/${jobId}/transcript?format=text` })).body;
    assert.doesNotMatch(text, DIGITS, `the after-call job's text: ${text}`);
  });

  test('at capacity the next stream is refused with a reason; /asr/maxstreamscheck shows the figures', async () => {
    const file = devAudio('audio/jfk.wav')!;
    const { audio, bytesPerSecond } = encodeFile(file, 'pcm_s16le', 16000, 1);
    let firstStarted = false;
    const first = streamAudio({
      url: `${url}/asr/stream`,
      start: { sampleRate: 16000, encoding: 'pcm_s16le', job: false },
      audio,
      bytesPerSecond,
      pace: 1,
      onMessage: ({ message }) => {
        if (message.type === 'started') firstStarted = true;
      },
    });
    await until(() => firstStarted, 'the first stream to start');
    const check = json(await svc.request({ method: 'GET', url: '/asr/maxstreamscheck' }));
    assert.deepEqual([check.realtime.streams, check.realtime.capacity, check.realtime.available, check.realtime.accepting], [1, 1, 0, false]);
    const second = await streamAudio({ url: `${url}/asr/stream`, start: { sampleRate: 16000, encoding: 'pcm_s16le' }, audio: audio.subarray(0, 3200), bytesPerSecond });
    assert.equal(second.closeCode, 1013, 'try again later');
    const error = second.messages.find((m) => m.message.type === 'error')!.message;
    assert.equal(error.status, 503);
    assert.equal(error.reason, 'at_capacity');
    assert.match(error.detail, /capacity of 1 concurrent stream/);
    assert.equal(second.started, undefined);
    const done = await first;
    assert.equal(done.closeCode, 1000);
    const after = json(await svc.request({ method: 'GET', url: '/asr/maxstreamscheck' }));
    assert.equal(after.realtime.streams, 0, 'the ended stream no longer counts');
  });

  test('a client killed mid-call still produces the after-call job with what was received', async () => {
    const file = devAudio('audio/jfk.wav')!;
    const { audio, bytesPerSecond } = encodeFile(file, 'pcm_s16le', 16000, 1);
    let streamId = '';
    const result = await streamAudio({
      url: `${url}/asr/stream`,
      start: { sampleRate: 16000, encoding: 'pcm_s16le' },
      audio,
      bytesPerSecond,
      pace: 4,
      vanishAfterSeconds: 5,
      onMessage: ({ message }) => {
        if (message.type === 'started') streamId = message.streamId;
      },
    });
    assert.notEqual(result.closeCode, 1000);
    assert.ok(streamId);
    const job = await until(async () => {
      const { jobs } = await svc.services.store.jobs.list({ limit: 50, offset: 0 });
      return jobs.find((j) => JSON.parse(j.params).tracking_id === streamId);
    }, 'the job of the vanished stream');
    assert.ok(job.audio_seconds! >= 4.5 && job.audio_seconds! <= 5.5, `the job holds the ~5 s received (${job.audio_seconds} s)`);
  });

  test('an 8 kHz mu-law two-track call, as Scrubline frames and as Twilio Media Streams: each channel gets its own finals', async () => {
    const file = devAudio('audio/stereo/stereo_diarization.wav')!;
    const { audio, bytesPerSecond } = encodeFile(file, 'mulaw', 8000, 2);
    const direct = await streamAudio({ url: `${url}/asr/stream`, start: { sampleRate: 8000, encoding: 'mulaw', channels: 2, agentChannel: 0, job: false }, audio, bytesPerSecond, pace: 2 });
    assert.equal(direct.closeCode, 1000, direct.closeReason);
    assert.ok(finals(direct, 0).length > 0 && finals(direct, 1).length > 0, 'finals on both channels');
    assert.deepEqual(new Set(finals(direct).map((m) => m.realTimeMessage.speaker)), new Set(['agent', 'caller']));

    // Twilio: the left channel as the outbound (agent) track, the right as inbound, 20 ms of base64 mu-law per message.
    const socket = new WebSocket(`${url}/asr/stream/twilio`);
    const got: Record<string, any>[] = [];
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    socket.on('message', (data) => got.push(JSON.parse(data.toString())));
    await new Promise((r) => socket.on('open', r));
    socket.send(JSON.stringify({ event: 'connected', protocol: 'Call', version: '1.0.0' }));
    socket.send(JSON.stringify({ event: 'start', sequenceNumber: '1', start: { streamSid: 'MZ1', callSid: 'CA1', tracks: ['inbound', 'outbound'], mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 }, customParameters: { agentId: 'a-9', job: 'false' } } }));
    await until(() => got.some((m) => m.type === 'started'), 'the Twilio stream to start');
    const frames = audio.length / 2;
    for (let i = 0, seq = 2; i < frames; i += 160) {
      for (const [track, channel] of [['outbound', 0], ['inbound', 1]] as const) {
        const bytes = Buffer.alloc(Math.min(160, frames - i));
        for (let k = 0; k < bytes.length; k++) bytes[k] = audio[(i + k) * 2 + channel];
        socket.send(JSON.stringify({ event: 'media', sequenceNumber: String(seq++), media: { track, chunk: String(i / 160), timestamp: String(i / 8), payload: bytes.toString('base64') } }));
      }
      if (i % 1600 === 0) await new Promise((r) => setTimeout(r, 5));
    }
    socket.send(JSON.stringify({ event: 'mark', mark: { name: 'end' } }));
    socket.send(JSON.stringify({ event: 'stop', stop: { callSid: 'CA1' } }));
    assert.equal(await closed, 1000);
    const twilioFinals = got.filter((m) => m.type === 'realTimeMessage' && m.realTimeMessage.isFinal);
    assert.ok(twilioFinals.some((m) => m.channel === 0) && twilioFinals.some((m) => m.channel === 1), 'finals on both tracks');
    assert.ok(twilioFinals.every((m) => m.realTimeMessage.ucid === 'CA1' && m.realTimeMessage.engagementId === 'MZ1' && m.realTimeMessage.agentId === 'a-9'));
    assert.ok(got.at(-1)?.type === 'summary');
  });

  test('bad input is refused with a reason, never a crash: a start message that is not valid, audio before start', async () => {
    const bad = await streamAudio({ url: `${url}/asr/stream`, start: { sampleRate: 12, encoding: 'flac' }, audio: Buffer.alloc(0), bytesPerSecond: 1 });
    assert.equal(bad.closeCode, 1008);
    const error = bad.messages[0].message;
    assert.equal(error.status, 400);
    assert.ok(error.errors.some((e: { path: string }) => e.path === 'sampleRate'));
    const socket = new WebSocket(`${url}/asr/stream`);
    const code = new Promise<number>((resolve) => socket.on('close', (c) => resolve(c)));
    await new Promise((r) => socket.on('open', r));
    socket.send(Buffer.alloc(320));
    assert.equal(await code, 1008);
  });
});
