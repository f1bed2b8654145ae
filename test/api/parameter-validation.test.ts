// set-parameter (issue 22): engine parameters refused out of the range a job refuses, a default `model` that
// is not installed refused (and a job never falls back silently to another model), and a parameter unset.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { installedModels } from '../../src/engine/models.js';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';
import { multipart } from '../helpers/multipart.js';

for (const dialect of await dialects()) {
  describe(`parameter validation (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService(dialect, { workers: false });
    });
    after(() => svc.close());

    const set = (payload: object) => svc.request({ method: 'POST', url: '/system/set-parameter', payload });
    const unset = (payload: object) => svc.request({ method: 'POST', url: '/system/unset-parameter', payload });
    const get = (query: string) => svc.request({ method: 'GET', url: `/system/get-parameter?${query}` });

    test('engine parameters are refused out of range, as a job refuses them', async () => {
      for (const [name, value] of [['uttmaxsilence', -5], ['uttmaxsilence', 10], ['activitylevel', 40000], ['uttpadding', -1], ['scrubmindist', -0.5], ['bufmaxtime', 0]] as const) {
        const res = await set({ name, value });
        assert.equal(res.statusCode, 400, `${name}=${value}: ${res.body}`);
        assert.ok(json(res).errors.some((e: { pointer: string }) => e.pointer === '/value'), res.body);
      }
      const job = await svc.request({ method: 'POST', url: '/asr/transcribe', payload: { text: 'hello', uttmaxsilence: -5 } });
      assert.equal(job.statusCode, 400, job.body);
      assert.equal(json(await get('name=uttmaxsilence')).source, 'default', 'nothing was stored');
      assert.equal((await set({ name: 'uttmaxsilence', value: 1200 })).statusCode, 200);
    });

    test('a default model that is not installed is refused; an installed one or auto is taken', async () => {
      const res = await set({ name: 'model', value: 'en-us:not-a-model' });
      assert.equal(res.statusCode, 400, res.body);
      assert.match(json(res).errors[0].message, /not installed/);
      const installed = installedModels().filter((m) => !m.auto);
      assert.ok(installed.length > 0, 'a model is installed (./run installs en-us:wideband)');
      assert.equal((await set({ name: 'model', value: installed[0].name })).statusCode, 200);
      assert.equal((await set({ name: 'model', value: 'auto' })).statusCode, 200);
      assert.equal((await set({ name: 'model', value: 'en-us:not-a-model', sid: 'some-project' })).statusCode, 400);
    });

    test('a stored default model that is no longer installed refuses jobs instead of another model', async () => {
      // As if the model was removed after it was set: written to the store directly.
      await svc.services.store.parameters.set('', 'model', 'en-us:removed-model');
      const upload = multipart({}, [{ name: 'audio', filename: 'a.wav', content: Buffer.from('RIFF') }]);
      const res = await svc.request({ method: 'POST', url: '/asr/transcribe', ...upload });
      assert.equal(res.statusCode, 503, res.body);
      assert.match(json(res).detail, /en-us:removed-model.*not installed/);
      assert.equal((await unset({ name: 'model' })).statusCode, 200);
    });

    test('a parameter can be unset: reading falls back to the next source', async () => {
      await set({ name: 'uttpadding', value: 500 });
      await set({ name: 'uttpadding', value: 700, sid: 'p-unset' });
      let res = await unset({ name: 'uttpadding', sid: 'p-unset' });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual([json(res).current.source, json(res).current.value], ['system', 500]);
      res = await unset({ name: 'uttpadding' });
      assert.deepEqual([json(res).current.source, json(res).current.value], ['default', 300]);
      assert.equal(json(await svc.request({ method: 'GET', url: '/asr/params' })).params.uttpadding, 300);
      assert.equal((await unset({ name: 'uttpadding' })).statusCode, 404, 'not set any more');
      await set({ name: 'my_own', value: 'x' });
      res = await unset({ name: 'my_own' });
      assert.equal(json(res).current, null);
      assert.equal((await get('name=my_own')).statusCode, 404);
      const events = json(await svc.request({ method: 'GET', url: '/system/events?subject=system' })).events;
      assert.ok(events.some((e: { subType: string }) => e.subType === 'parameter_unset'));
    });
  });
}
