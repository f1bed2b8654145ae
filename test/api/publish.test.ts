// Publishing project configurations: versioning, refusal of a bad configuration whole, and the round trip
// publish -> cache list -> get-parameter, on both stores.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';

const config = (overrides: Record<string, unknown> = {}) => ({
  sid: 'acme-support',
  name: 'Acme support line',
  active: true,
  agent_location: 'left',
  inbound: true,
  scrubaudio: true,
  scrubtext: true,
  rules: [
    { name: 'Person', active: true, mask_type: 'Placeholder', setting: '[PERSON]', real_time: true },
    { name: 'USSocialSecurityNumber', active: true, mask_type: 'Placeholder', setting: '[SSN]', real_time: true },
  ],
  ...overrides,
});

for (const dialect of await dialects()) {
  describe(`publish (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService(dialect);
    });
    after(() => svc.close());

    const publish = (data: unknown) =>
      svc.request({ method: 'POST', url: '/system/cache/v2/publish', payload: { data: typeof data === 'string' ? data : JSON.stringify(data) } });

    test('publish, list and get-parameter round trip', async () => {
      const first = await publish(config());
      assert.equal(first.statusCode, 200, first.body);
      const body = json(first);
      assert.equal(body.sid, 'acme-support');
      assert.equal(body.version, 1);
      assert.equal(body.rules.length, 2);
      assert.ok(!Number.isNaN(Date.parse(body.publishedAt)));

      const list = json(await svc.request({ method: 'GET', url: '/cache/list?kind=project' }));
      assert.equal(list.total, 1);
      assert.deepEqual(
        list.entries.map((e: { key: string; version: number }) => [e.key, e.version]),
        [['project:acme-support', 1]],
      );

      const rules = json(await svc.request({ method: 'GET', url: '/system/get-parameter?sid=acme-support&name=rules' }));
      assert.equal(rules.source, 'project-config');
      assert.deepEqual(rules.value, config().rules);
      const scrub = json(await svc.request({ method: 'GET', url: '/system/get-parameter?sid=acme-support&name=scrubaudio' }));
      assert.equal(scrub.value, true);
    });

    test('an update with an added rule becomes the next version and is in force at once', async () => {
      const added = config({
        rules: [...config().rules, { name: 'Address', active: true, mask_type: 'Placeholder', setting: '[ADDRESS]', real_time: false }],
      });
      const res = await publish(added);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(json(res).version, 2);
      const rules = json(await svc.request({ method: 'GET', url: '/system/get-parameter?sid=acme-support&name=rules' }));
      assert.deepEqual(
        rules.value.map((r: { name: string }) => r.name),
        ['Person', 'USSocialSecurityNumber', 'Address'],
      );
      const list = json(await svc.request({ method: 'GET', url: '/cache/list?prefix=project:' }));
      assert.equal(list.entries[0].version, 2);
    });

    test('a wrong type is refused with the path of the field and the previous version stays in force', async () => {
      const bad = config({ rules: [{ name: 'Person', active: 'yes', mask_type: 'Placeholder', setting: '[PERSON]' }] });
      const res = await publish(bad);
      assert.equal(res.statusCode, 400);
      assert.match(res.headers['content-type'] as string, /application\/problem\+json/);
      const problem = json(res);
      assert.deepEqual(
        problem.errors.map((e: { pointer: string; path: string }) => [e.pointer, e.path]),
        [['/data/rules/0/active', 'data.rules[0].active']],
      );
      const rules = json(await svc.request({ method: 'GET', url: '/system/get-parameter?sid=acme-support&name=rules' }));
      assert.equal(rules.value.length, 3, 'version 2 is still in force');
      const list = json(await svc.request({ method: 'GET', url: '/cache/list?kind=project' }));
      assert.equal(list.entries[0].version, 2);
    });

    test('data that is missing, not a string, not JSON, or without sid is refused', async () => {
      const cases: [unknown, number, string][] = [
        [{}, 400, '/data'],
        [{ data: { sid: 'x' } }, 400, '/data'],
        [{ data: '{not json' }, 400, '/data'],
        [{ data: '[1,2]' }, 400, '/data'],
        [{ data: JSON.stringify({ name: 'no sid' }) }, 400, '/data/sid'],
        [{ data: JSON.stringify({ sid: 'x', rules: [{ name: 'Person', mask_type: 'Scramble' }] }) }, 400, '/data/rules/0/mask_type'],
      ];
      for (const [payload, status, pointer] of cases) {
        const res = await svc.request({ method: 'POST', url: '/system/cache/v2/publish', payload: payload as object });
        assert.equal(res.statusCode, status, `${JSON.stringify(payload)} -> ${res.body}`);
        assert.ok(
          json(res).errors.some((e: { pointer: string }) => e.pointer === pointer),
          `${JSON.stringify(payload)} names ${pointer}: ${res.body}`,
        );
      }
    });

    test('a rule naming anything but an entity kind refuses the whole publish; kind names are stored canonical', async () => {
      const versions = async () => (await svc.services.store.projects.versions('other')).length;
      const before = await versions();
      const res = await publish({ sid: 'other', scrubtext: true, rules: [{ name: ' person ', active: true }, { name: 'FavouriteColour', active: true }] });
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(json(res).errors.map((e: { pointer: string }) => e.pointer), ['/data/rules/1/name']);
      assert.match(json(res).detail, /FavouriteColour/);
      assert.match(json(res).detail, /CreditCardNumber/, 'the valid kinds are listed');
      assert.equal(await versions(), before, 'nothing was published');
      const ok = await publish({ sid: 'other', scrubtext: true, rules: [{ name: ' creditCARDnumber ', active: true }] });
      assert.equal(ok.statusCode, 200, ok.body);
      assert.deepEqual(json(ok).rules.map((r: { name: string }) => r.name), ['CreditCardNumber']);
      assert.equal((await svc.services.projects.current('other'))?.config.rules?.[0].name, 'CreditCardNumber');
    });

    test('publishing is recorded as an event', async () => {
      const events = json(await svc.request({ method: 'GET', url: '/system/events?type=project' }));
      assert.ok(events.events.some((e: { subType: string }) => e.subType === 'published'));
    });
  });
}
