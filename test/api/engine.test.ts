// The /asr/ endpoints answer live figures of the running service.
import assert from 'node:assert/strict';
import os from 'node:os';
import { after, before, describe, test } from 'node:test';
import { json, startTestService, type TestService } from '../helpers/harness.js';

describe('engine endpoints', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService('sqlite', { env: { SCRUBLINE_MAX_STREAMS: '3' } });
  });
  after(() => svc.close());
  const get = async (url: string) => {
    const res = await svc.request({ method: 'GET', url });
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    return res;
  };

  test('models and languages agree with what is installed', async () => {
    const models = json(await get('/asr/models'));
    assert.ok(models.models.length >= 1);
    for (const m of models.models) {
      assert.match(m.name, /^[a-z]{2}-[a-z]{2}:[a-z0-9-]+$/);
      assert.equal(typeof m.installed, 'boolean');
      if (!m.installed) assert.ok(m.reason, 'a missing model says why');
    }
    const languages = json(await get('/asr/languages'));
    const installed = models.models.filter((m: { installed: boolean }) => m.installed).map((m: { language: string }) => m.language);
    assert.deepEqual(languages.languages, [...new Set(installed)].sort());
    const status = json(await get('/asr/status'));
    assert.equal(status.engine.ready, installed.length > 0);
  });

  test('capacity follows the configured limit', async () => {
    const check = json(await get('/asr/maxstreamscheck'));
    const { streams, capacity, available, accepting } = check;
    assert.deepEqual({ streams, capacity, available, accepting }, { streams: 0, capacity: 3, available: 3, accepting: true });
    assert.deepEqual(check.processes.map((p: { id: string; capacity: number }) => [p.id, p.capacity]), [[svc.services.worker.id, 3]]);
    assert.equal(typeof check.decoders.size, 'number');
    assert.ok(check.memory.freeBytes > check.memory.largestModelBytes, 'memory for another copy of the largest model');
    assert.equal(check.memory.loadedModelBytes, 0);
  });

  test('sysinfo reports this machine and process', async () => {
    const info = json(await get('/asr/sysinfo'));
    assert.equal(info.hostname, os.hostname());
    assert.equal(info.cpus, os.availableParallelism());
    assert.equal(info.process.pid, process.pid);
    assert.equal(info.memory.totalBytes, os.totalmem());
  });

  test('statistics count what happened today', async () => {
    await svc.request({ method: 'POST', url: '/cache/post-call', payload: { conversationId: 'c' } });
    await svc.request({ method: 'POST', url: '/cache/post-call', payload: { conversationId: 'd' } });
    const stats = json(await get('/asr/stats'));
    const today = new Date().toISOString().slice(0, 10);
    const day = stats.days.find((d: { day: string }) => d.day === today);
    assert.equal(day.events['conversation.received'], 2);
    // Request totals are the answering process's, told apart from the database's figures.
    assert.equal(stats.requests, undefined);
    assert.ok(stats.process.requests.total >= 2);
    assert.equal(stats.process.pid, process.pid);
    const full = json(await get('/asr/statusfull?days=1'));
    assert.equal(full.cache.conversation.entries, 2);
    assert.equal((await svc.request({ method: 'GET', url: '/asr/stats?days=0' })).statusCode, 400);
  });

  test('usage lists every model', async () => {
    const usage = json(await get('/asr/usage'));
    const models = json(await get('/asr/models')).models.map((m: { name: string }) => m.name);
    assert.deepEqual(usage.models.map((u: { model: string }) => u.model), models);
  });

  test('metrics are Prometheus text with request counts by route', async () => {
    await get('/asr/params');
    const res = await get('/asr/metrics');
    assert.match(res.headers['content-type'] as string, /^text\/plain/);
    assert.match(res.body, /# HELP scrubline_http_requests_total/);
    assert.match(res.body, /scrubline_http_requests_total\{method="GET",route="\/asr\/params",status="200"\} [1-9]/);
    assert.match(res.body, /scrubline_process_resident_memory_bytes/);
    assert.match(res.body, /scrubline_jobs\{state="queued"\} \d+/);
    assert.match(res.body, /scrubline_decoders\{kind="size"\} \d+/);
    assert.match(res.body, /# HELP scrubline_job_real_time_factor/);
  });

  test('every response carries the service version', async () => {
    const res = await get('/asr/status');
    assert.equal(res.headers['x-scrubline-version'], json(res).version);
  });
});
