// GET /cache/list?prefix= is a literal, case-sensitive prefix on SQLite and PostgreSQL alike: `_` and `%` in it
// match only themselves (they were LIKE wildcards, escaped in a way only PostgreSQL understood), and letters
// match only their own case (SQLite's LIKE folds ASCII case, PostgreSQL's does not).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';

for (const dialect of await dialects()) {
  describe(`cache list prefix (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService(dialect, { workers: false });
      for (const sid of ['acme_x', 'acmeAx', 'acme%y', 'acmezzy', 'Acme_x']) {
        const res = await svc.request({ method: 'POST', url: '/system/set-parameter', payload: { sid, name: 'uttmaxsilence', value: 900 } });
        assert.equal(res.statusCode, 200, res.body);
      }
    });
    after(async () => svc?.close());

    const keys = async (prefix: string) => {
      const res = await svc.request({ method: 'GET', url: `/cache/list?prefix=${encodeURIComponent(prefix)}` });
      assert.equal(res.statusCode, 200, res.body);
      return (json(res).entries as { key: string }[]).map((e) => e.key).sort();
    };

    test('`_` and `%` in a prefix are literal', async () => {
      assert.deepEqual(await keys('parameter:acme_'), ['parameter:acme_x:uttmaxsilence']);
      assert.deepEqual(await keys('parameter:acme%'), ['parameter:acme%y:uttmaxsilence']);
      assert.deepEqual(await keys('parameter:acme_x:'), ['parameter:acme_x:uttmaxsilence']);
    });

    test('a prefix is case-sensitive, and a plain one still lists all it starts', async () => {
      assert.deepEqual(await keys('parameter:Acme'), ['parameter:Acme_x:uttmaxsilence']);
      assert.deepEqual(await keys('parameter:acme'), [
        'parameter:acme%y:uttmaxsilence',
        'parameter:acmeAx:uttmaxsilence',
        'parameter:acme_x:uttmaxsilence',
        'parameter:acmezzy:uttmaxsilence',
      ].sort());
      assert.equal(json(await svc.request({ method: 'GET', url: '/cache/list?prefix=parameter:acme' })).total, 4);
    });
  });
}
