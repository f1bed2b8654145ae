// Credentials inside a published project configuration: sealed at rest (the stored row holds none in clear),
// masked in every answer, and kept across an edit made from the masked form (the console's, or a client's
// read-modify-publish): an unchanged mask keeps the stored credential, a mask that matches nothing stored at
// its place is refused with a 400 naming it — the mask itself is never stored as the credential.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openCredentials } from '../../src/security/credentials.js';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';

const SECRET = 'sk-live-7f3c9a1e5b2d4c68';
const ACCESS = 'AKIA9Q8W7E6R5T4Y3U2I';
const HEADER = 'Bearer hdr-0c1d2e3f4a5b6c7d';

for (const dialect of await dialects()) {
  describe(`project configuration credentials (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService(dialect);
    });
    after(() => svc.close());

    const publish = (config: unknown) => svc.request({ method: 'POST', url: '/system/cache/v2/publish', payload: { data: JSON.stringify(config) } });
    const storedRows = async (sid: string) =>
      (await svc.services.store.database.db.selectFrom('project_versions').selectAll().where('sid', '=', sid).orderBy('version').execute()).map((r) => String(r.config));
    const latestOpened = async (sid: string) => openCredentials((await svc.services.store.projects.latest(sid))!.config, svc.services.box) as any;
    const versions = async (sid: string) => json(await svc.request({ method: 'GET', url: `/system/projects/${sid}/versions` })).versions;

    test('sealed at rest, masked in answers', async () => {
      const res = await publish({
        sid: 'cred-1',
        rules: [{ name: 'Person' }],
        secretKey: SECRET,
        campaign: { acessKey: ACCESS },
        notification: { url: 'https://hooks.example.com/x', auth_headers: [`Authorization: ${HEADER}`] },
      });
      assert.equal(res.statusCode, 200, res.body);
      for (const value of [SECRET, ACCESS, HEADER, 'hdr-0c1d']) assert.ok(!res.body.includes(value));
      const [row] = await storedRows('cred-1');
      for (const value of [SECRET, ACCESS, HEADER, 'hdr-0c1d']) assert.ok(!row.includes(value), `the stored row holds ${value} in clear`);
      const opened = await latestOpened('cred-1');
      assert.deepEqual([opened.secretKey, opened.campaign.acessKey, opened.notification.auth_headers[0]], [SECRET, ACCESS, `Authorization: ${HEADER}`]);
      const [shown] = await versions('cred-1');
      assert.equal(shown.config.secretKey, `****${SECRET.slice(-4)}`);
      assert.equal(shown.config.campaign.acessKey, `****${ACCESS.slice(-4)}`);
      assert.equal(shown.config.notification.auth_headers[0], `Authorization: ****${HEADER.slice(-4)}`);
    });

    test('an edit published from the masked form keeps every stored credential', async () => {
      const [shown] = await versions('cred-1');
      const edited = { ...shown.config, rules: [{ name: 'Person' }, { name: 'Email' }] };
      const res = await publish(edited);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(json(res).version, 2);
      const opened = await latestOpened('cred-1');
      assert.deepEqual([opened.secretKey, opened.campaign.acessKey, opened.notification.auth_headers[0]], [SECRET, ACCESS, `Authorization: ${HEADER}`]);
      assert.deepEqual(opened.rules.map((r: { name: string }) => r.name), ['Person', 'Email']);
      for (const row of await storedRows('cred-1')) assert.ok(!row.includes('****'), 'a mask was stored as a credential');
    });

    test('a mask that matches nothing stored is refused, naming it; the version in force stays', async () => {
      const [shown] = await versions('cred-1');
      for (const config of [
        { ...shown.config, secretKey: '****zzzz' },
        { ...shown.config, campaign: { acessKey: '****' } },
        { ...shown.config, apiKeyCloud: '****abcd' },
        { ...shown.config, notification: { ...shown.config.notification, auth_headers: ['X-Other: ****7c7d'] } },
        { sid: 'cred-new', secretKey: '****1234' },
      ]) {
        const res = await publish(config);
        assert.equal(res.statusCode, 400, res.body);
        assert.match(String(res.headers['content-type']), /application\/problem\+json/);
        assert.match(res.body, /masked/);
      }
      const refused = json(await publish({ ...shown.config, secretKey: '****zzzz' }));
      assert.deepEqual(refused.errors.map((e: { pointer: string }) => e.pointer), ['/data/secretKey']);
      assert.equal((await svc.services.store.projects.latest('cred-1'))!.version, 2);
      assert.equal((await svc.services.store.projects.latest('cred-new')), undefined);
    });

    test('a new credential given in clear replaces the stored one', async () => {
      const [shown] = await versions('cred-1');
      const res = await publish({ ...shown.config, secretKey: 'sk-live-rotated-0099' });
      assert.equal(res.statusCode, 200, res.body);
      const opened = await latestOpened('cred-1');
      assert.equal(opened.secretKey, 'sk-live-rotated-0099');
      assert.equal(opened.campaign.acessKey, ACCESS);
    });
  });
}
