// Live streams on the sherpa-onnx engine, with a generated streaming (cache-aware NeMo CTC) model: tones become
// made-up words ("hellos" is no English word; PocketSphinx cannot say it), so partials and finals can only come
// from that model running in sherpa-onnx's online recognizer on the stream workers. Over a real socket: partials,
// finals with word times from the tokens, per channel, the after-call job on the same model; a stream asking an
// offline sherpa model (the tiny NeMo CTC one) is decoded per utterance (simulated streaming). No timing is asserted.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { encodeFile, streamAudio, type StreamResult } from '../../examples/stream-client.js';
import { listModels } from '../../src/engine/models.js';
import { existingSharedStreamPool } from '../../src/engine/streamPool.js';
import { recognizeFile } from '../../src/engine/recognize.js';
import { addModel } from '../../src/engine/sherpa/manage.js';
import { inspectModelFolder, ModelFolderError } from '../../src/engine/sherpa/modelFolder.js';
import { hasTool, stereo, tempDir } from '../helpers/audio.js';
import { json, startTestService, type TestService } from '../helpers/harness.js';
import { until } from '../helpers/poll.js';
import { required } from '../helpers/require.js';
import { writeTinyNemoCtcModel, writeTinyOnlineModel, writeTinyTransducerModel, writeToneSequence } from '../helpers/tinyOnnxModel.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ONLINE = 'en-us:tiny-online';
const OFFLINE = 'en-us:tiny-ctc';
/** The same streaming model saying digits: "hello" → one, "world" → two, "s" → three. */
const DIGITS_MODEL = 'en-us:tiny-digits';
const DIGITS = /\b(one|two|three)\b|[0-9]/;

const realTime = (r: StreamResult, final: boolean, channel?: number) =>
  r.messages
    .map((m) => m.message)
    .filter((m) => m.type === 'realTimeMessage' && m.realTimeMessage.isFinal === final && (channel === undefined || m.channel === channel));

describe('streaming sherpa-onnx models', { skip: required(!hasTool('ffmpeg') && 'ffmpeg is not installed') }, () => {
  let svc: TestService;
  let url: string;
  let dir: string;
  let saved: string | undefined;

  before(async () => {
    dir = tempDir('scrubline-sherpa-stream-');
    const models = path.join(dir, 'models');
    fs.mkdirSync(models);
    for (const sub of ['pocketsphinx', 'telephony']) if (fs.existsSync(path.join(ROOT, 'models', sub))) fs.symlinkSync(path.join(ROOT, 'models', sub), path.join(models, sub));
    saved = process.env.SCRUBLINE_MODELS_DIR;
    process.env.SCRUBLINE_MODELS_DIR = models;
    await addModel(writeTinyOnlineModel(path.join(dir, 'online')), { name: ONLINE });
    await addModel(writeTinyNemoCtcModel(path.join(dir, 'offline')), { name: OFFLINE });
    await addModel(writeTinyOnlineModel(path.join(dir, 'digits'), { tokens: ['▁one', '▁two', '▁three'] }), { name: DIGITS_MODEL });
    svc = await startTestService('sqlite');
    url = (await svc.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
  });
  after(async () => {
    await svc.close();
    if (saved === undefined) delete process.env.SCRUBLINE_MODELS_DIR;
    else process.env.SCRUBLINE_MODELS_DIR = saved;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a streaming folder is its own family, load-checked by the online recognizer; its metadata is checked first', () => {
    const info = listModels().find((m) => m.name === ONLINE);
    assert.equal(info?.installed, true, info?.reason);
    assert.equal(info?.family, 'online-nemo-ctc');
    assert.equal(info?.wordTimes, 'model');
    const half = writeTinyOnlineModel(path.join(dir, 'half'), { metadata: { model_type: 'EncDecCTCModelBPE', vocab_size: '3', subsampling_factor: '4', window_size: '16' } });
    // The other streaming families, by the metadata their exports carry (recognized only: not run here).
    const zipCtc = writeTinyOnlineModel(path.join(dir, 'zip-ctc'), { metadata: { model_type: 'zipformer2', decode_chunk_len: '32', T: '45' } });
    assert.equal(inspectModelFolder(zipCtc).family, 'online-zipformer2-ctc');
    const zipRnnt = writeTinyTransducerModel(path.join(dir, 'zip-rnnt'), { encoderMetadata: { model_type: 'zipformer2', decode_chunk_len: '32', T: '45' } });
    assert.equal(inspectModelFolder(zipRnnt).family, 'online-transducer');
    assert.equal(inspectModelFolder(writeTinyTransducerModel(path.join(dir, 'rnnt'))).family, 'transducer', 'an offline export stays offline');
    assert.throws(
      () => inspectModelFolder(half),
      (e: Error) => e instanceof ModelFolderError && /lacks chunk_shift/.test(e.message) && /lacks cache_last_time_dim3/.test(e.message),
    );
  });

  test('a stream on it: partials while the tones play, finals at each pause with word times from the tokens', async () => {
    // Pauses of 2 s end utterances (uttmaxsilence is below that); 0.6 s inside one does not.
    const { file, tones } = writeToneSequence(path.join(dir, 'tones.wav'), [0.5, 'hello', 0.6, 'world', 2, 'hello', 's', 2]);
    const { audio, bytesPerSecond } = encodeFile(file, 'pcm_s16le', 16000, 1);
    const result = await streamAudio({ url: `${url}/asr/stream`, start: { sampleRate: 16000, encoding: 'pcm_s16le', model: ONLINE }, audio, bytesPerSecond, pace: 4 });
    assert.equal(result.closeCode, 1000, result.closeReason);
    assert.equal(result.started?.model, ONLINE);
    const partials = realTime(result, false).map((m) => m.realTimeMessage.text);
    assert.ok(partials.includes('hello'), `a partial before the utterance ended: ${JSON.stringify(partials)}`);
    assert.ok(partials.includes('hellos'), `the made-up word grows in a partial: ${JSON.stringify(partials)}`);
    const finals = realTime(result, true);
    assert.deepEqual(
      finals.map((m) => m.realTimeMessage.text),
      ['hello world', 'hellos'],
    );
    const words = finals.flatMap((m) => m.words);
    [tones[0].start, tones[1].start, tones[2].start].forEach((start, i) => assert.ok(Math.abs(words[i].start - start) <= 0.06, `${words[i].word} at ${words[i].start}, tone at ${start}`));
    assert.ok(words[2].end >= tones[3].start, 'the word with its piece covers both tones');
    for (const m of finals) for (const w of m.words) assert.ok(w.start >= m.realTimeMessage.messageStartTime - 1e-6 && w.end <= m.realTimeMessage.messageEndTime + 1e-6);

    // The stream worker keeps the model loaded, and /asr/sysinfo counts that copy.
    assert.ok(existingSharedStreamPool()?.heldModels().flat().includes(ONLINE), 'a stream worker holds the model');
    const sysinfo = json(await svc.request({ method: 'GET', url: '/asr/sysinfo' }));
    const loaded = sysinfo.models.loaded.find((m: { model: string }) => m.model === ONLINE);
    assert.ok(loaded?.copies >= 1 && loaded.bytes > 0, `the stream worker's copy is counted: ${JSON.stringify(sysinfo.models)}`);

    // The after-call job runs the same model over the recording: the same words.
    assert.ok(result.summary?.jobId, 'the summary names the after-call job');
    const job = await until(async () => {
      const j = await svc.services.store.jobs.get(result.summary!.jobId);
      return j && ['completed', 'failed'].includes(j.status) ? j : undefined;
    }, 'the after-call job to finish');
    assert.equal(job.status, 'completed', job.last_error ?? '');
    const batch = await recognizeFile(file, { model: ONLINE });
    assert.deepEqual(batch.channels[0].words.map((w) => w.word), ['hello', 'world', 'hellos']);
  });

  test('a two-channel 8 kHz mu-law call, as Scrubline frames and through the Twilio path: each channel decoded on its own', async () => {
    const left = writeToneSequence(path.join(dir, 'left.wav'), [0.3, 'hello', 2.5], { sampleRate: 8000 }).file;
    const right = writeToneSequence(path.join(dir, 'right.wav'), [1.2, 'world', 1.6], { sampleRate: 8000 }).file;
    const call = stereo(left, right, path.join(dir, 'call.wav'));
    const { audio, bytesPerSecond } = encodeFile(call, 'mulaw', 8000, 2);
    const result = await streamAudio({ url: `${url}/asr/stream`, start: { sampleRate: 8000, encoding: 'mulaw', channels: 2, model: ONLINE }, audio, bytesPerSecond, pace: 4 });
    assert.equal(result.closeCode, 1000, result.closeReason);
    assert.deepEqual(realTime(result, true, 0).map((m) => m.realTimeMessage.text), ['hello']);
    assert.deepEqual(realTime(result, true, 1).map((m) => m.realTimeMessage.text), ['world']);

    // The same call through the Twilio Media Streams path, the model named as a custom parameter: outbound (left)
    // is channel 0, inbound (right) channel 1, 20 ms of base64 mu-law per message.
    const socket = new WebSocket(`${url}/asr/stream/twilio`);
    const got: Record<string, any>[] = [];
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    socket.on('message', (data) => got.push(JSON.parse(data.toString())));
    await new Promise((r) => socket.on('open', r));
    socket.send(JSON.stringify({ event: 'connected', protocol: 'Call', version: '1.0.0' }));
    socket.send(
      JSON.stringify({
        event: 'start',
        sequenceNumber: '1',
        start: { streamSid: 'MZ7', callSid: 'CA7', tracks: ['inbound', 'outbound'], mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 }, customParameters: { model: ONLINE, job: 'false' } },
      }),
    );
    await until(() => got.some((m) => m.type === 'started' || m.type === 'error'), 'the Twilio stream to start');
    assert.equal(got.find((m) => m.type === 'started')?.model, ONLINE, JSON.stringify(got));
    const frames = audio.length / 2;
    for (let i = 0, seq = 2; i < frames; i += 160) {
      for (const [track, channel] of [['outbound', 0], ['inbound', 1]] as const) {
        const bytes = Buffer.alloc(Math.min(160, frames - i));
        for (let k = 0; k < bytes.length; k++) bytes[k] = audio[(i + k) * 2 + channel];
        socket.send(JSON.stringify({ event: 'media', sequenceNumber: String(seq++), media: { track, chunk: String(i / 160), timestamp: String(i / 8), payload: bytes.toString('base64') } }));
      }
      if (i % 1600 === 0) await new Promise((r) => setTimeout(r, 5));
    }
    socket.send(JSON.stringify({ event: 'stop', stop: { callSid: 'CA7' } }));
    assert.equal(await closed, 1000);
    const twilio = (channel: number) => got.filter((m) => m.type === 'realTimeMessage' && m.realTimeMessage.isFinal && m.channel === channel).map((m) => m.realTimeMessage.text);
    assert.deepEqual([twilio(0), twilio(1)], [['hello'], ['world']]);
  });

  test('a stream asking an offline sherpa model: each utterance the endpointer cuts is decoded whole for its final; partials re-decode it as it grows', async () => {
    const { file, tones } = writeToneSequence(path.join(dir, 'offline.wav'), [0.5, 'hello', 0.4, 'world', 2, 'hello', 's', 1.5]);
    const { audio, bytesPerSecond } = encodeFile(file, 'pcm_s16le', 16000, 1);
    const result = await streamAudio({ url: `${url}/asr/stream`, start: { sampleRate: 16000, encoding: 'pcm_s16le', model: OFFLINE }, audio, bytesPerSecond, pace: 4 });
    assert.equal(result.closeCode, 1000, result.closeReason);
    assert.equal(result.started?.model, OFFLINE);
    const partials = realTime(result, false).map((m) => m.realTimeMessage.text);
    assert.ok(partials.length > 0 && partials.every((p) => /^(hello|hello world|hellos?)$/.test(p)), `partials from the model: ${JSON.stringify(partials)}`);
    const finals = realTime(result, true);
    assert.deepEqual(
      finals.map((m) => m.realTimeMessage.text),
      ['hello world', 'hellos'],
    );
    const words = finals.flatMap((m) => m.words);
    [tones[0].start, tones[1].start, tones[2].start].forEach((start, i) => assert.ok(Math.abs(words[i].start - start) <= 0.05, `${words[i].word} at ${words[i].start}, tone at ${start}`));
  });

  test('redaction in flight on it: a spoken SSN with an active real_time rule shows in no message, partial or final; the finals show the mask', async () => {
    const published = await svc.request({
      method: 'POST',
      url: '/system/cache/v2/publish',
      payload: {
        data: JSON.stringify({
          sid: 'live-tones',
          name: 'Live tones',
          active: true,
          rules: [{ name: 'USSocialSecurityNumber', active: true, mask_type: 'Placeholder', setting: '[SSN]', real_time: true }],
        }),
      },
    });
    assert.equal(published.statusCode, 200, published.body);
    // one two three one two three one two three: 123-12-3123.
    const { file } = writeToneSequence(path.join(dir, 'ssn.wav'), [0.5, 'hello', 'world', 's', 'hello', 'world', 's', 'hello', 'world', 's', 2], { toneSeconds: 0.3 });
    const { audio, bytesPerSecond } = encodeFile(file, 'pcm_s16le', 16000, 1);
    const result = await streamAudio({ url: `${url}/asr/stream`, start: { sampleRate: 16000, encoding: 'pcm_s16le', model: DIGITS_MODEL, sid: 'live-tones' }, audio, bytesPerSecond, pace: 4 });
    assert.equal(result.closeCode, 1000, result.closeReason);
    assert.deepEqual(result.started!.redaction.kinds, ['USSocialSecurityNumber']);
    const all = result.messages.map((m) => m.message).filter((m) => m.type === 'realTimeMessage');
    assert.ok(all.length > 0);
    for (const message of all) {
      assert.doesNotMatch(message.realTimeMessage.text, DIGITS, `message ${message.sequence} (${message.realTimeMessage.isFinal ? 'final' : 'partial'}): ${message.realTimeMessage.text}`);
      for (const w of message.words ?? []) assert.doesNotMatch(w.word, DIGITS);
    }
    const text = realTime(result, true).map((m) => m.realTimeMessage.text).join(' ');
    assert.match(text, /\[SSN\]/, `the finals show the mask: ${text}`);
  });
});
