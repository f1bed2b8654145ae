// Live streams on the sherpa-onnx engine, with a generated streaming (cache-aware NeMo CTC) model: tones become
// made-up words ("hellos" is no English word; PocketSphinx cannot say it), so partials and finals can only come
// from that model running in sherpa-onnx's online recognizer on the stream workers. Over a real socket: partials,
// finals with word times from the tokens, per channel, the after-call job on the same model; a stream asking an
// offline-only sherpa model is refused (422, close 1008) naming why. No timing is asserted.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { encodeFile, streamAudio, type StreamResult } from '../../examples/stream-client.js';
import { listModels } from '../../src/engine/models.js';
import { recognizeFile } from '../../src/engine/recognize.js';
import { addModel } from '../../src/engine/sherpa/manage.js';
import { inspectModelFolder, ModelFolderError } from '../../src/engine/sherpa/modelFolder.js';
import { hasTool, stereo, tempDir } from '../helpers/audio.js';
import { startTestService, type TestService } from '../helpers/harness.js';
import { until } from '../helpers/poll.js';
import { required } from '../helpers/require.js';
import { writeTinyNemoCtcModel, writeTinyOnlineModel, writeToneSequence } from '../helpers/tinyOnnxModel.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ONLINE = 'en-us:tiny-online';
const OFFLINE = 'en-us:tiny-ctc';

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

  test('a two-channel 8 kHz mu-law call: each channel decoded on its own', async () => {
    const left = writeToneSequence(path.join(dir, 'left.wav'), [0.3, 'hello', 2.5], { sampleRate: 8000 }).file;
    const right = writeToneSequence(path.join(dir, 'right.wav'), [1.2, 'world', 1.6], { sampleRate: 8000 }).file;
    const call = stereo(left, right, path.join(dir, 'call.wav'));
    const { audio, bytesPerSecond } = encodeFile(call, 'mulaw', 8000, 2);
    const result = await streamAudio({ url: `${url}/asr/stream`, start: { sampleRate: 8000, encoding: 'mulaw', channels: 2, model: ONLINE }, audio, bytesPerSecond, pace: 4 });
    assert.equal(result.closeCode, 1000, result.closeReason);
    assert.deepEqual(realTime(result, true, 0).map((m) => m.realTimeMessage.text), ['hello']);
    assert.deepEqual(realTime(result, true, 1).map((m) => m.realTimeMessage.text), ['world']);
  });

  test('a stream asking an offline-only sherpa model is refused naming why, before any audio is decoded', async () => {
    const { audio, bytesPerSecond } = encodeFile(writeToneSequence(path.join(dir, 'one.wav'), [0.2, 'hello', 0.3]).file, 'pcm_s16le', 16000, 1);
    const result = await streamAudio({ url: `${url}/asr/stream`, start: { sampleRate: 16000, encoding: 'pcm_s16le', model: OFFLINE }, audio, bytesPerSecond, pace: 4 });
    assert.equal(result.started, undefined);
    const error = result.messages.map((m) => m.message).find((m) => m.type === 'error');
    assert.equal(error?.status, 422);
    assert.match(error?.detail ?? '', /en-us:tiny-ctc is a nemo-ctc model: offline-only, it cannot decode a live stream/);
    assert.equal(error?.errors?.[0]?.pointer, '/model');
    assert.equal(result.closeCode, 1008);
    assert.equal(realTime(result, false).length + realTime(result, true).length, 0);
  });
});
