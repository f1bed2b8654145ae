// Figures the API shows are measured, not assumed: a job's engine is its model's; insightsProcessed follows the
// job's state; /asr/status is not `ok` when a part a job needs is missing; capacity is summed over every process
// that runs jobs (heartbeat rows in the database); cancellations are counted.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { engineOfModel } from '../../src/engine/models.js';
import { addModel } from '../../src/engine/sherpa/manage.js';
import { assessStatus } from '../../src/observability/serviceStatus.js';
import { hasTool, tempDir } from '../helpers/audio.js';
import { dialects, json, startTestService, testDatabase, type TestDatabase, type TestService } from '../helpers/harness.js';
import { transcribeAndWait } from '../helpers/jobs.js';
import { writeTinyNemoCtcModel, writeToneSequence } from '../helpers/tinyOnnxModel.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const submitText = async (svc: TestService, extra: Record<string, unknown> = {}) => {
  const res = await svc.request({ method: 'POST', url: '/asr/transcribe', payload: { text: 'Agent: hello\nCaller: hi there', ...extra } });
  assert.equal(res.statusCode, 202, res.body);
  return json(res).jobId as string;
};
const get = async (svc: TestService, url: string) => {
  const res = await svc.request({ method: 'GET', url });
  assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
  return json(res);
};

test('a model name gives its engine as the router does: bundled → pocketsphinx, text → text, added → sherpa-onnx', () => {
  assert.equal(engineOfModel('en-us:auto'), 'pocketsphinx');
  assert.equal(engineOfModel('auto'), 'pocketsphinx');
  assert.equal(engineOfModel('en-us:wideband'), 'pocketsphinx');
  assert.equal(engineOfModel('en-us:telephony'), 'pocketsphinx');
  assert.equal(engineOfModel('text:input'), 'text');
  assert.equal(engineOfModel('en-us:whisper-tiny'), 'sherpa-onnx');
});

test('the status assessment: each missing part is named, and decides ok / degraded / unavailable', () => {
  const healthy = { store: { reachable: true }, installedModels: ['en-us:wideband'], unusableAddedModels: [], defaultModel: { name: 'en-us:auto', installed: true }, workerProcesses: 1 };
  assert.deepEqual(assessStatus(healthy), { status: 'ok', problems: [] });
  const noModel = assessStatus({ ...healthy, installedModels: [] });
  assert.equal(noModel.status, 'unavailable');
  assert.match(noModel.problems.join(), /no speech model is installed/);
  assert.equal(assessStatus({ ...healthy, store: { reachable: false, error: 'ECONNREFUSED' } }).status, 'unavailable');
  assert.equal(assessStatus({ ...healthy, workerProcesses: 0 }).status, 'degraded');
  assert.equal(assessStatus({ ...healthy, defaultModel: { name: 'en-us:gone', installed: false } }).status, 'degraded');
  const broken = assessStatus({ ...healthy, unusableAddedModels: [{ model: 'en-us:x', reason: 'failed its load check' }] });
  assert.deepEqual(broken, { status: 'degraded', problems: ['model en-us:x cannot be used: failed its load check'] });
});

for (const dialect of await dialects()) {
  describe(`honest figures (${dialect})`, () => {
    let database: TestDatabase;
    let api: TestService;
    before(async () => {
      database = await testDatabase(dialect);
      // An API process that runs no jobs: what it shows of jobs and capacity comes from the database.
      api = await startTestService(dialect, { database, workers: false, env: { SCRUBLINE_MAX_STREAMS: '3' } });
    });
    after(async () => {
      await api.close();
      await database.drop();
    });

    test('a job record names its engine from its model; insightsProcessed is true only once insights were produced', async () => {
      const jobId = await submitText(api);
      const audioLike = await api.services.store.jobs.get(jobId);
      assert.equal(audioLike?.model, 'text:input');
      let record = await get(api, `/asr/jobs/${jobId}`);
      assert.equal(record.engine, 'text');
      assert.equal(record.insightsProcessed, false);
      // Rows as an audio job on each engine's model would have them.
      await api.services.store.jobs.update(jobId, { input_kind: 'audio', model: 'en-us:whisper-tiny' });
      assert.equal((await get(api, `/asr/jobs/${jobId}`)).engine, 'sherpa-onnx');
      await api.services.store.jobs.update(jobId, { model: 'en-us:auto' });
      assert.equal((await get(api, `/asr/jobs/${jobId}`)).engine, 'pocketsphinx');
      // Where insights record their completion (issue 18): the flag follows the job's state.
      await api.services.store.jobs.update(jobId, { insights_completed_at: new Date().toISOString() });
      record = await get(api, `/asr/jobs/${jobId}`);
      assert.equal(record.insightsProcessed, true);
      const listed = (await get(api, '/asr/jobs?limit=50')).jobs.find((j: { jobId: string }) => j.jobId === jobId);
      if (listed) assert.equal(listed.insightsProcessed, true);
    });

    test('no process runs jobs: status is degraded and says so; capacity is none; a worker process makes it ok', async () => {
      const status = await get(api, '/asr/status');
      assert.equal(status.status, 'degraded');
      assert.match(status.problems.join('\n'), /no process runs jobs/);
      assert.equal(status.transcription.available, false);
      assert.equal(status.transcription.processes, 0);
      const idle = await get(api, '/asr/maxstreamscheck');
      assert.deepEqual([idle.capacity, idle.accepting, idle.processes.length], [0, false, 0]);
      assert.match(idle.reason, /no process runs jobs/);

      const worker = await startTestService(dialect, { database, env: { SCRUBLINE_MAX_STREAMS: '5', SCRUBLINE_WORKERS: '2' } });
      try {
        const now = await get(api, '/asr/status');
        assert.equal(now.status, 'ok', now.problems.join('; '));
        assert.deepEqual([now.transcription.available, now.transcription.processes, now.transcription.jobSlots], [true, 1, 2]);
        const check = await get(api, '/asr/maxstreamscheck');
        assert.deepEqual([check.capacity, check.accepting, check.jobs.slots], [5, true, 2]);
        assert.deepEqual(check.processes.map((p: { id: string }) => p.id), [worker.services.worker.id]);
      } finally {
        await worker.close();
      }
      assert.equal((await get(api, '/asr/status')).status, 'degraded', 'a worker that stopped takes its capacity with it');
    });

    test('maxstreamscheck sums every process that runs jobs, whichever answers; a silent process stops counting', async () => {
      const a = await startTestService(dialect, { database, env: { SCRUBLINE_MAX_STREAMS: '2' } });
      const b = await startTestService(dialect, { database, env: { SCRUBLINE_MAX_STREAMS: '4' } });
      try {
        // A process on another machine decoding two streams, and one whose heartbeat stopped an hour ago.
        const row = { role: 'worker', host: 'elsewhere', pid: 1, job_slots: 2, jobs_running: 1, max_streams: 6, decoders: 6, decoders_busy: 2, decoders_waiting: 1 };
        const now = new Date().toISOString();
        const db = api.services.store.database.db;
        await db.insertInto('worker_processes').values({ ...row, id: 'remote', started_at: now, heartbeat_at: now }).execute();
        const old = new Date(Date.now() - 3600_000).toISOString();
        await db.insertInto('worker_processes').values({ ...row, id: 'dead', decoders_busy: 6, started_at: old, heartbeat_at: old }).execute();
        for (const svc of [api, a, b]) {
          const check = await get(svc, '/asr/maxstreamscheck');
          assert.deepEqual(
            { streams: check.streams, capacity: check.capacity, available: check.available, accepting: check.accepting },
            { streams: 2, capacity: 2 + 4 + 6, available: 10, accepting: true },
            JSON.stringify(check),
          );
          assert.deepEqual(check.processes.map((p: { id: string }) => p.id).sort(), [a.services.worker.id, b.services.worker.id, 'remote'].sort());
          assert.deepEqual(check.decoders.waiting, 1);
        }
        await db.deleteFrom('worker_processes').where('id', '=', 'remote').execute();
      } finally {
        await a.close();
        await b.close();
      }
      assert.equal((await get(api, '/asr/maxstreamscheck')).capacity, 0);
    });

    test('cancelled and deleted jobs are counted as cancelled by the process that cancelled them', async () => {
      const metric = async () => {
        const text = (await api.request({ method: 'GET', url: '/asr/metrics' })).body;
        return Number(/^scrubline_jobs_finished_total\{status="cancelled"\} (\d+)/m.exec(text)?.[1]);
      };
      const before = await metric();
      const first = await submitText(api);
      const second = await submitText(api);
      assert.equal((await api.request({ method: 'POST', url: `/asr/jobs/${first}/cancel` })).statusCode, 200);
      assert.equal((await api.request({ method: 'DELETE', url: `/asr/jobs/${second}` })).statusCode, 204);
      assert.equal(await metric(), before + 2);
      // A refused cancel (already terminal) counts nothing.
      assert.equal((await api.request({ method: 'POST', url: `/asr/jobs/${first}/cancel` })).statusCode, 409);
      assert.equal(await metric(), before + 2);
    });

    test('request totals are shown as the answering process\'s; the daily figures are the database\'s', async () => {
      const stats = await get(api, '/asr/stats?days=1');
      assert.equal(stats.requests, undefined);
      assert.equal(stats.process.id, api.services.worker.id);
      assert.ok(stats.process.requests.total > 0);
      const full = await get(api, '/asr/statusfull?days=1');
      assert.equal(full.status, 'degraded');
      assert.ok(full.process.requests.total > 0);
    });

    test('a database that does not answer: status unavailable (200, with the reason); capacity 503', async () => {
      // Its jobs table gone, the database cannot answer what a job needs (the API keys it still answers: a
      // database down altogether fails every request at authentication, before any route).
      const lost = await startTestService(dialect, { workers: false });
      try {
        const drop = lost.services.store.database.db.schema.dropTable('jobs');
        // Results, deliveries and events refer to jobs: PostgreSQL drops those constraints with it only when told.
        await (dialect === 'postgres' ? drop.cascade() : drop).execute();
        const res = await lost.request({ method: 'GET', url: '/asr/status' });
        assert.equal(res.statusCode, 200, res.body);
        const status = json(res);
        assert.equal(status.status, 'unavailable');
        assert.equal(status.store.reachable, false);
        assert.match(status.problems[0], /the database does not answer/);
        assert.equal(status.transcription.queue, null);
        assert.equal((await lost.request({ method: 'GET', url: '/asr/maxstreamscheck' })).statusCode, 503);
        assert.equal((await lost.request({ method: 'GET', url: '/asr/statusfull' })).statusCode, 503);
        // Gauges the database gives are left out rather than reported as 0; the metrics still answer.
        const metrics = await lost.request({ method: 'GET', url: '/asr/metrics' });
        assert.equal(metrics.statusCode, 200);
        assert.doesNotMatch(metrics.body, /^scrubline_jobs\{/m);
      } finally {
        await lost.close();
      }
    });
  });
}

describe('a sherpa-onnx job through the service', { skip: !hasTool('ffmpeg') && 'ffmpeg is not installed' }, () => {
  const MODEL = 'en-us:tiny-ctc';
  let svc: TestService;
  let dir: string;
  let saved: string | undefined;
  before(async () => {
    dir = tempDir('scrubline-figures-');
    const models = path.join(dir, 'models');
    fs.mkdirSync(models);
    for (const sub of ['pocketsphinx', 'telephony']) if (fs.existsSync(path.join(ROOT, 'models', sub))) fs.symlinkSync(path.join(ROOT, 'models', sub), path.join(models, sub));
    saved = process.env.SCRUBLINE_MODELS_DIR;
    process.env.SCRUBLINE_MODELS_DIR = models;
    await addModel(writeTinyNemoCtcModel(path.join(dir, 'tiny')), { name: MODEL });
    svc = await startTestService('sqlite');
  });
  after(async () => {
    await svc.close();
    if (saved === undefined) delete process.env.SCRUBLINE_MODELS_DIR;
    else process.env.SCRUBLINE_MODELS_DIR = saved;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('its record says sherpa-onnx, queued and completed; a pocketsphinx job says pocketsphinx', async () => {
    const tones = writeToneSequence(path.join(dir, 'tones.wav'), [0.4, 'hello', 0.5, 'world', 0.6]).file;
    const job = await transcribeAndWait(svc, tones, { query: `&model=${MODEL}` });
    assert.equal(job.model, MODEL);
    assert.equal(job.engine, 'sherpa-onnx');
    const bundled = await transcribeAndWait(svc, tones, { query: '&model=en-us:wideband' });
    assert.equal(bundled.engine, 'pocketsphinx');
    assert.equal((await get(svc, '/asr/status')).status, 'ok');
  });

  test('an added model that fails its check makes the status degraded, naming it', async () => {
    await addModel(writeTinyNemoCtcModel(path.join(dir, 'fragile')), { name: 'en-us:fragile' });
    fs.writeFileSync(path.join(process.env.SCRUBLINE_MODELS_DIR!, 'onnx', 'en-us', 'fragile', 'model.onnx'), 'truncated');
    const status = await get(svc, '/asr/status');
    assert.equal(status.status, 'degraded');
    assert.match(status.problems.join('\n'), /model en-us:fragile cannot be used: .*model\.onnx/);
    // The default model broken the same way: jobs that name none are refused, and the status says so.
    const set = await svc.request({ method: 'POST', url: '/system/set-parameter', payload: { name: 'model', value: MODEL } });
    assert.ok(set.statusCode < 300, set.body);
    fs.writeFileSync(path.join(process.env.SCRUBLINE_MODELS_DIR!, 'onnx', 'en-us', 'tiny-ctc', 'model.onnx'), 'truncated');
    assert.match((await get(svc, '/asr/status')).problems.join('\n'), new RegExp(`the default model ${MODEL} cannot be used`));
  });
});
