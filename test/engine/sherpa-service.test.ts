// A sherpa-onnx model through the service: registered in the models folder, it is listed by /asr/models,
// /asr/languages, /asr/params and /asr/usage; a job that names it runs through sherpa-onnx (its words — "hellos"
// among them — exist in no other engine) and every transcript shape carries them with times; the configured
// default applies when a job names none; a model broken behind the service's back is reported at /asr/status
// and refused cleanly while the service stays up.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { addModel } from '../../src/engine/sherpa/manage.js';
import { hasTool, stereo, tempDir } from '../helpers/audio.js';
import { json, startTestService, type TestService } from '../helpers/harness.js';
import { transcribeAndWait, transcriptShape } from '../helpers/jobs.js';
import { multipart } from '../helpers/multipart.js';
import { writeTinyNemoCtcModel, writeToneSequence } from '../helpers/tinyOnnxModel.js';
import { required } from '../helpers/require.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const MODEL = 'en-us:tiny-ctc';

describe('sherpa-onnx models through the service', { skip: required(!hasTool('ffmpeg') && 'ffmpeg is not installed') }, () => {
  let svc: TestService;
  let dir: string;
  let call: string;
  let saved: string | undefined;

  before(async () => {
    dir = tempDir('scrubline-sherpa-service-');
    // One models folder for the test: the bundled engine's files linked in, added models under onnx/.
    const models = path.join(dir, 'models');
    fs.mkdirSync(models);
    for (const sub of ['pocketsphinx', 'telephony']) if (fs.existsSync(path.join(ROOT, 'models', sub))) fs.symlinkSync(path.join(ROOT, 'models', sub), path.join(models, sub));
    saved = process.env.SCRUBLINE_MODELS_DIR;
    process.env.SCRUBLINE_MODELS_DIR = models;
    await addModel(writeTinyNemoCtcModel(path.join(dir, 'tiny')), { name: MODEL });
    const left = writeToneSequence(path.join(dir, 'left.wav'), [0.4, 'hello', 0.5, 'world', 1.6]).file;
    const right = writeToneSequence(path.join(dir, 'right.wav'), [1.8, 'hello', 's', 0.5]).file;
    call = stereo(left, right, path.join(dir, 'call.wav'));
    svc = await startTestService('sqlite');
  });
  after(async () => {
    await svc.close();
    if (saved === undefined) delete process.env.SCRUBLINE_MODELS_DIR;
    else process.env.SCRUBLINE_MODELS_DIR = saved;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const transcribe = (query: string) => transcribeAndWait(svc, call, { query });
  const shape = (jobId: string, format: string) => transcriptShape(svc, jobId, format);

  test('the added model is listed as installed, with its engine, family and memory', async () => {
    const models = json(await svc.request({ method: 'GET', url: '/asr/models' })).models;
    const tiny = models.find((m: { name: string }) => m.name === MODEL);
    assert.equal(tiny.installed, true);
    assert.equal(tiny.engine, 'sherpa-onnx');
    assert.equal(tiny.family, 'nemo-ctc');
    assert.ok(tiny.memoryBytes > 0);
    assert.ok(json(await svc.request({ method: 'GET', url: '/asr/languages' })).languages.includes('en-us'));
    assert.ok(json(await svc.request({ method: 'GET', url: '/asr/params' })).params.models.includes(MODEL));
    const status = json(await svc.request({ method: 'GET', url: '/asr/status' }));
    assert.ok(status.engine.engines['sherpa-onnx'].models.includes(MODEL));
    assert.match(status.engine.engines['sherpa-onnx'].version, /^\d+\.\d+\.\d+$/);
  });

  test('a job naming the model runs through sherpa-onnx; every shape has its words with times, per channel', async () => {
    const job = await transcribe(`&model=${MODEL}&numtrans=false`);
    assert.equal(job.model, MODEL);
    const vendorA = json(await shape(job.jobId, 'vendorA'));
    const byChannel = [0, 1].map((c) =>
      vendorA.utterances
        .filter((u: { metadata: { channel: number } }) => u.metadata.channel === c)
        .flatMap((u: { events: { word: string; start: number; end: number }[] }) => u.events),
    );
    assert.deepEqual(byChannel.map((events) => events.map((e: { word: string }) => e.word)), [['hello', 'world'], ['hellos']]);
    assert.ok(Math.abs(byChannel[0][0].start - 0.4) <= 0.05 && Math.abs(byChannel[0][1].start - 1.4) <= 0.05, JSON.stringify(byChannel[0]));
    assert.ok(Math.abs(byChannel[1][0].start - 1.8) <= 0.05 && byChannel[1][0].end >= 2.75, JSON.stringify(byChannel[1]));

    const words = ['hello', 'world', 'hellos'];
    const v2 = json(await shape(job.jobId, 'transcript'));
    const v2Words = v2.results.filter((r: { type: string }) => r.type === 'word');
    assert.deepEqual(v2Words.map((r: { alternatives: { content: string }[] }) => r.alternatives[0].content.toLowerCase()).sort(), [...words].sort());
    for (const r of v2Words) assert.ok(r.end_time > r.start_time);
    const vendorB = (await shape(job.jobId, 'vendorB')).body;
    for (const w of words) assert.match(vendorB, new RegExp(`"${w}"`, 'i'));
    const utterances = json(await shape(job.jobId, 'utterances'));
    assert.deepEqual(utterances.flatMap((u: { text: string }) => u.text.toLowerCase().split(' ')).sort(), [...words].sort());
    for (const u of utterances) assert.ok(u.end > u.start);
    const text = (await shape(job.jobId, 'text')).body.toLowerCase();
    for (const w of words) assert.match(text, new RegExp(`\\b${w}\\b`));
    for (const format of ['srt', 'vtt']) {
      const body = (await shape(job.jobId, format)).body;
      assert.match(body, /\d\d:\d\d:\d\d[,.]\d\d\d --> \d\d:\d\d:\d\d[,.]\d\d\d/);
      for (const w of words) assert.match(body.toLowerCase(), new RegExp(`\\b${w}\\b`));
    }

    const usage = json(await svc.request({ method: 'GET', url: '/asr/usage' }));
    const used = usage.models.find((m: { model: string }) => m.model === MODEL);
    assert.equal(used.jobs, 1);
    assert.ok(used.audioSeconds > 2.5);
    const sysinfo = json(await svc.request({ method: 'GET', url: '/asr/sysinfo' }));
    const loaded = sysinfo.models.loaded.find((m: { model: string }) => m.model === MODEL);
    assert.ok(loaded && loaded.copies >= 1 && loaded.bytes === loaded.copies * loaded.bytesEach, JSON.stringify(sysinfo.models));
    const capacity = json(await svc.request({ method: 'GET', url: '/asr/maxstreamscheck' }));
    assert.ok(capacity.memory.largestModelBytes >= loaded.bytesEach);
    assert.equal(capacity.memory.loadedModelBytes, sysinfo.models.loadedBytes);
  });

  test('the configured default model applies when a job names none', async () => {
    const set = await svc.request({ method: 'POST', url: '/system/set-parameter', payload: { name: 'model', value: MODEL } });
    assert.ok(set.statusCode < 300, set.body);
    try {
      const job = await transcribe('');
      assert.equal(job.model, MODEL);
      assert.match((await shape(job.jobId, 'text')).body.toLowerCase(), /hellos/);
    } finally {
      await svc.request({ method: 'POST', url: '/system/set-parameter', payload: { name: 'model', value: 'en-us:auto' } });
    }
  });

  test('a model broken after it was added is reported at /asr/status and refused cleanly; the service stays up', async () => {
    await addModel(writeTinyNemoCtcModel(path.join(dir, 'fragile')), { name: 'en-us:fragile' });
    fs.writeFileSync(path.join(process.env.SCRUBLINE_MODELS_DIR!, 'onnx', 'en-us', 'fragile', 'model.onnx'), 'truncated');
    const status = await svc.request({ method: 'GET', url: '/asr/status' });
    assert.equal(status.statusCode, 200);
    const broken = json(status).engine.unavailable.find((m: { model: string }) => m.model === 'en-us:fragile');
    assert.match(broken.reason, /model\.onnx: is not an ONNX model/);
    const refused = await svc.request({
      method: 'POST',
      url: '/asr/transcribe?model=en-us:fragile',
      ...multipart({}, [{ name: 'audio', filename: 'call.wav', content: fs.readFileSync(call) }]),
    });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.match(json(refused).detail, /en-us:fragile" is not installed/);
    // The working model still works.
    await transcribe(`&model=${MODEL}`);
  });
});
