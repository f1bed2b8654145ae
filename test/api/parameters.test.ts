// System and project parameters: typed engine parameters reflected by /asr/params, resolution order of
// get-parameter, system settings (resource 16) with credentials masked, and initialize being idempotent.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';

for (const dialect of await dialects()) {
  describe(`parameters (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService(dialect);
    });
    after(() => svc.close());

    const set = (payload: object) => svc.request({ method: 'POST', url: '/system/set-parameter', payload });
    const get = (query: string) => svc.request({ method: 'GET', url: `/system/get-parameter?${query}` });

    test('/asr/params and /params answer resource 20 with defaults', async () => {
      for (const url of ['/asr/params', '/params']) {
        const res = await svc.request({ method: 'GET', url, headers: { accept: '*/*' } });
        assert.equal(res.statusCode, 200);
        const { params } = json(res);
        assert.equal(params.activitylevel, 175);
        assert.equal(params.uttmaxsilence, 800);
        assert.equal(params.scrubmindist, 0.3);
        assert.equal(params.endian, 'LITTLE');
        assert.equal(params.queue, 'bottom');
        assert.match(params.model, /^[a-z-]+:[a-z0-9-]+$/);
        assert.ok(params.models.includes(params.model));
        assert.equal(params.recvtimeout, null);
      }
    });

    test('an engine parameter set with set-parameter shows in /asr/params; a wrong type is refused', async () => {
      const res = await set({ name: 'uttmaxsilence', value: 1200 });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(json(res).parameters[0].value, 1200);
      assert.equal(json(await svc.request({ method: 'GET', url: '/asr/params' })).params.uttmaxsilence, 1200);
      assert.equal((await set({ name: 'uttmaxsilence', value: 12.5 })).statusCode, 400);
      assert.equal((await set({ name: 'numtrans', value: 'yes' })).statusCode, 400);
      assert.equal((await set({ name: 'languages', value: ['en-us', 3] })).statusCode, 400);
      assert.equal(json(await svc.request({ method: 'GET', url: '/asr/params' })).params.uttmaxsilence, 1200, 'unchanged');
      assert.equal((await set({ name: 'model', value: 'en-us:wideband' })).statusCode, 200);
    });

    test('get-parameter resolves project, published configuration, system, default', async () => {
      assert.equal(json(await get('name=uttpadding')).source, 'default');
      assert.equal(json(await get('name=uttmaxsilence')).source, 'system');
      await svc.request({
        method: 'POST',
        url: '/system/cache/v2/publish',
        payload: { data: JSON.stringify({ sid: 'p1', scrubtext: false, rules: [] }) },
      });
      const fromConfig = json(await get('name=scrubtext&sid=p1'));
      assert.deepEqual([fromConfig.source, fromConfig.value], ['project-config', false]);
      await set({ name: 'scrubtext', value: true, sid: 'p1' });
      const own = json(await get('name=scrubtext&sid=p1'));
      assert.deepEqual([own.source, own.value], ['project', true]);
      assert.equal(json(await get('name=uttmaxsilence&sid=p1')).source, 'system', 'falls through to the system');
      await set({ name: 'uttmaxsilence', value: 400, sid: 'p1' });
      assert.equal(json(await get('name=uttmaxsilence&sid=p1')).value, 400);
      assert.equal(json(await get('name=uttmaxsilence')).value, 1200, 'the system value is untouched');
      const listed = json(await get('sid=p1')).parameters.map((p: { name: string }) => p.name);
      assert.deepEqual(listed, ['scrubtext', 'uttmaxsilence']);
      assert.equal((await get('name=never-set')).statusCode, 404);
    });

    test('a credential-named parameter of any shape is stored sealed and answered masked', async () => {
      const value = { id: 'svc', secret: 'object-shaped-secret-123456' };
      assert.equal((await set({ name: 'token', value })).statusCode, 200);
      assert.equal(json(await get('name=token')).value, '****');
      const rows = JSON.stringify(await svc.services.store.database.db.selectFrom('parameters').selectAll().execute());
      assert.ok(!rows.includes('object-shaped-secret-123456'), 'sealed at rest');
    });

    test('custom parameters keep any JSON value', async () => {
      const value = { queues: ['billing', 'support'], weights: { billing: 2 } };
      assert.equal((await set({ name: 'routing.table', value })).statusCode, 200);
      assert.deepEqual(json(await get('name=routing.table')).value, value);
    });

    test('system settings: typed, credentials masked', async () => {
      const res = await set({
        name: 'systemSettings',
        value: { region: 'eu-west-1', bucket: 'calls', entityEngine: 2, flag1: true, apiKeyCloud: 'AKIA-secret-0000-WXYZ' },
      });
      assert.equal(res.statusCode, 200, res.body);
      const settings = json(await svc.request({ method: 'GET', url: '/system/get-settings' }));
      assert.equal(settings.region, 'eu-west-1');
      assert.equal(settings.entityEngine, 2);
      assert.equal(settings.flag1, true);
      assert.equal(settings.apiKeyCloud, '****WXYZ');
      assert.equal((await set({ name: 'systemSettings', value: { entityEngine: 'two' } })).statusCode, 400);
      const bad = json(await set({ name: 'systemSettings', value: { flag2: 'on' } }));
      assert.equal(bad.errors[0].pointer, '/value/flag2');
      assert.equal((await set({ name: 'region', value: 5 })).statusCode, 400);
    });

    test('initialize is idempotent', async () => {
      const first = await svc.request({ method: 'POST', url: '/system/initialize' });
      const second = await svc.request({ method: 'POST', url: '/system/initialize' });
      assert.equal(first.statusCode, 200);
      assert.equal(second.statusCode, 200);
      assert.deepEqual(json(second).migrationsApplied, [], 'nothing left to apply');
      assert.equal(json(second).store, dialect);
      assert.equal(json(await get('name=uttmaxsilence')).value, 1200, 'data survives initialize');
    });
  });
}
