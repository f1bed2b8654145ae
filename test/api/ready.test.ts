// /ready (issue 22): ready when the store answers and the engine decodes; the decode is cached briefly, so a
// burst of probes costs one decode; an engine that cannot decode makes the service not ready (503).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DecodeCheck } from '../../src/engine/decodeCheck.js';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';

for (const dialect of await dialects()) {
  describe(`readiness (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService(dialect, { workers: false });
    });
    after(() => svc.close());

    test('the real engine decodes: ready, and a burst of probes decodes once', async () => {
      const answers = await Promise.all(Array.from({ length: 5 }, () => svc.request({ method: 'GET', url: '/ready' })));
      for (const res of answers) {
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(json(res).engine.ok, true);
        assert.equal(typeof json(res).engine.model, 'string');
      }
      assert.equal(svc.services.decodeCheck.decodes, 1);
      assert.equal((await svc.request({ method: 'GET', url: '/ready' })).statusCode, 200);
      assert.equal(svc.services.decodeCheck.decodes, 1, 'cached within its time to live');
    });

    test('an engine that cannot decode is not ready: 503 naming why', async () => {
      const real = svc.services.decodeCheck;
      try {
        // A model that is not installed: the real decode path throws.
        svc.services.decodeCheck = new DecodeCheck({ model: async () => 'en-us:not-installed', ttlMs: 0 });
        let res = await svc.request({ method: 'GET', url: '/ready' });
        assert.equal(res.statusCode, 503, res.body);
        assert.match(json(res).detail, /cannot decode with en-us:not-installed/);
        assert.equal(json(res).engine.ok, false);
        // A decode that never ends counts as a failure after its time limit.
        svc.services.decodeCheck = new DecodeCheck({ model: async () => 'en-us:wideband', ttlMs: 0, timeoutMs: 50, decode: () => new Promise(() => {}) });
        res = await svc.request({ method: 'GET', url: '/ready' });
        assert.equal(res.statusCode, 503, res.body);
        assert.match(json(res).detail, /did not finish/);
      } finally {
        svc.services.decodeCheck = real;
      }
    });
  });
}
