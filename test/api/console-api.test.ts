// The calls the console needed that the API had not, on both stores: who a key is (/console/session), the projects
// and their versions, the preview of a draft project on a sample sentence (validated as a publish, redacted by the
// one core, never answering the value), a job's events for read keys, and the jobs list's filters.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_ID_LENGTH } from '../../src/schema/bounds.js';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';

const CARD = '4532 0151 1283 0366';

for (const dialect of await dialects()) {
  describe(`console API (${dialect})`, () => {
    let svc: TestService;
    let keys: Record<'admin' | 'submit' | 'read', string>;
    const as = (scope: keyof typeof keys) => ({ authorization: `Bearer ${keys[scope]}` });
    before(async () => {
      svc = await startTestService(dialect);
      keys = {
        admin: (await svc.services.store.apiKeys.create('a', 'admin')).key,
        submit: (await svc.services.store.apiKeys.create('s', 'submit')).key,
        read: (await svc.services.store.apiKeys.create('r', 'read')).key,
      };
    });
    after(() => svc.close());

    const publish = (config: unknown) =>
      svc.request({ method: 'POST', url: '/system/cache/v2/publish', headers: as('admin'), payload: { data: JSON.stringify(config) } });
    const submitText = async (fields: Record<string, unknown>) => {
      const res = await svc.request({ method: 'POST', url: '/asr/transcribe?wait=60', headers: as('submit'), payload: { text: 'Caller: hello there', ...fields } });
      assert.equal(res.statusCode, 200, res.body);
      return json(res);
    };

    test('/console/session says the scope of the key; without one it is refused once keys exist', async () => {
      assert.deepEqual(json(await svc.request({ method: 'GET', url: '/console/session', headers: as('read') })), { scope: 'read', name: 'r', open: false });
      assert.equal(json(await svc.request({ method: 'GET', url: '/console/session', headers: as('admin') })).scope, 'admin');
      assert.equal((await svc.request({ method: 'GET', url: '/console/session' })).statusCode, 401);
    });

    test('projects and their versions, newest first, for read keys; an unknown project is a 404', async () => {
      assert.equal((await publish({ sid: 'p-one', scrubtext: true, rules: [{ name: 'CreditCardNumber' }] })).statusCode, 200);
      assert.equal((await publish({ sid: 'p-one', scrubtext: true, rules: [{ name: 'creditcardnumber', mask_type: 'MaskCharacter' }] })).statusCode, 200);
      assert.equal((await publish({ sid: 'p-two', crm: { apiKey: 'sk-live-very-secret-1234' } })).statusCode, 200);
      const list = json(await svc.request({ method: 'GET', url: '/system/projects', headers: as('read') }));
      assert.deepEqual(
        list.projects.map((p: { sid: string; version: number }) => [p.sid, p.version]),
        [
          ['p-one', 2],
          ['p-two', 1],
        ],
      );
      assert.equal(list.total, 2);
      assert.ok(list.kinds.includes('CreditCardNumber') && list.maskTypes.includes('MaskCharacter'));
      const versions = json(await svc.request({ method: 'GET', url: '/system/projects/p-one/versions', headers: as('read') })).versions;
      assert.deepEqual(versions.map((v: { version: number }) => v.version), [2, 1]);
      assert.equal(versions[0].config.rules[0].name, 'CreditCardNumber', 'stored canonical');
      assert.equal(versions[0].config.rules[0].mask_type, 'MaskCharacter');
      const two = await svc.request({ method: 'GET', url: '/system/projects/p-two/versions', headers: as('read') });
      assert.ok(!two.body.includes('very-secret'), 'a credential in a configuration is answered masked');
      assert.equal(json(two).versions[0].config.crm.apiKey, '****1234');
      assert.equal((await svc.request({ method: 'GET', url: '/system/projects/nope/versions', headers: as('read') })).statusCode, 404);
      assert.equal((await svc.request({ method: 'GET', url: `/system/projects/${'x'.repeat(MAX_ID_LENGTH + 1)}/versions`, headers: as('read') })).statusCode, 400);
    });

    test('the preview redacts a sample with the draft rules and answers no value; a bad draft is the publish 400; admin only', async () => {
      const preview = (data: string, text: string, scope: keyof typeof keys = 'admin') =>
        svc.request({ method: 'POST', url: '/system/projects/preview', headers: as(scope), payload: { data, text } });
      const draft = JSON.stringify({ sid: 'draft', rules: [{ name: 'CreditCardNumber', mask_type: 'MaskCharacter' }] });
      const ok = await preview(draft, `my card number is ${CARD} thanks`);
      assert.equal(ok.statusCode, 200, ok.body);
      const body = json(ok);
      assert.ok(!ok.body.includes('4532') && !ok.body.includes('0366'), ok.body);
      assert.match(body.text, /^my card number is [* ]+ thanks$/);
      assert.deepEqual(body.kinds, ['CreditCardNumber']);
      assert.deepEqual(body.spans.map((s: { kind: string; maskType: string }) => [s.kind, s.maskType]), [['CreditCardNumber', 'MaskCharacter']]);
      assert.equal(body.text.slice(body.spans[0].offset, body.spans[0].offset + body.spans[0].length).replace(/[* ]/g, ''), '');

      // No rules: scrubbing means every kind, as for a job naming the project.
      const every = json(await preview(JSON.stringify({ sid: 'draft' }), `I am John Smith, card ${CARD}`));
      assert.ok(every.kinds.length > 5 && !JSON.stringify(every).includes('4532'));

      const bad = await preview(JSON.stringify({ sid: 'draft', rules: [{ name: 'Nope' }] }), 'hello');
      assert.equal(bad.statusCode, 400);
      assert.equal(json(bad).errors[0].path, 'data.rules[0].name');
      assert.equal((await preview('{not json', 'hello')).statusCode, 400);
      assert.equal((await preview(draft, 'x'.repeat(5000))).statusCode, 400);
      assert.equal((await preview(draft, '')).statusCode, 400);
      assert.equal((await preview(draft, 'hello', 'read')).statusCode, 403);
      // Nothing was published by a preview.
      assert.equal((await svc.request({ method: 'GET', url: '/system/projects/draft/versions', headers: as('read') })).statusCode, 404);
    });

    test("a job's record names its call id (the console links it to the call's live streams); the list filters by it", async () => {
      const res = await svc.request({ method: 'POST', url: '/asr/transcribe?wait=60', headers: as('submit'), payload: { text: 'Caller: hello there', callSid: 'CA-record-names-it' } });
      assert.equal(res.statusCode, 200, res.body);
      const job = json(await svc.request({ method: 'GET', url: `/asr/jobs/${json(res).jobId}`, headers: as('read') }));
      assert.equal(job.request.callSid, 'CA-record-names-it');
      const listed = json(await svc.request({ method: 'GET', url: '/asr/jobs?callSid=CA-record-names-it', headers: as('read') }));
      assert.deepEqual(listed.jobs.map((j: { jobId: string }) => j.jobId), [job.jobId]);
    });

    test("the preview runs the draft's insight rules over the redacted sample: matches with their words, violations, never a masked value", async () => {
      const draft = JSON.stringify({
        sid: 'draft-insights',
        rules: [{ name: 'CreditCardNumber' }],
        agent_location: 'right',
        insights: [
          { id: 'greet', name: 'Greeting', expression: '"thank you for calling"', channel: 0 },
          { id: 'card', expression: 'card', channel: 1 },
          { id: 'digits', expression: '4532' },
          { id: 'disclose', expression: '"recorded line"', complianceViolation: true },
        ],
      });
      const res = await svc.request({
        method: 'POST',
        url: '/system/projects/preview',
        headers: as('admin'),
        payload: { data: draft, text: `Agent: thank you for calling\nCaller: my card is ${CARD}` },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.ok(!res.body.includes('4532') && !res.body.includes('0366'), res.body);
      const byId = Object.fromEntries(json(res).insights.map((i: { id: string }) => [i.id, i]));
      assert.deepEqual(byId.greet, { id: 'greet', name: 'Greeting', type: 'match', lines: [{ line: 0, speaker: 0, text: 'thank you for calling' }] });
      assert.deepEqual(byId.card.lines, [{ line: 1, speaker: 1, text: 'card' }]);
      // The card's digits were masked before the rules ran: a rule for them finds nothing.
      assert.equal(byId.digits.type, 'no_match');
      assert.equal(byId.disclose.type, 'compliance_violation');
      // A bad expression is the publish's 400, naming the rule.
      const bad = await svc.request({ method: 'POST', url: '/system/projects/preview', headers: as('admin'), payload: { data: JSON.stringify({ sid: 'd', insights: [{ id: 'x', expression: '"open' }] }), text: 'hello' } });
      assert.equal(bad.statusCode, 400, bad.body);
      assert.match(bad.body, /insights/);
    });

    test("a job's events for read keys; an unknown job is a 404", async () => {
      const job = await submitText({});
      const events = json(await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/events`, headers: as('read') })).events;
      const kinds = events.map((e: { subType: string }) => e.subType);
      assert.ok(kinds.includes('queued') && kinds.includes('completed'), kinds.join());
      assert.ok(events.every((e: { jobId?: string; subject?: string }) => (e.jobId ?? e.subject) === job.jobId));
      assert.equal((await svc.request({ method: 'GET', url: '/asr/jobs/no-such-job/events', headers: as('read') })).statusCode, 404);
    });

    test('the jobs list filters by project, tracking id (literally) and creation time', async () => {
      const a = await submitText({ sid: 'p-one', tracking_id: 'T_1%' });
      const b = await submitText({ tracking_id: 'T-1x' });
      const list = async (query: string) => {
        const res = await svc.request({ method: 'GET', url: `/asr/jobs?${query}`, headers: as('read') });
        assert.equal(res.statusCode, 200, res.body);
        return json(res).jobs.map((j: { jobId: string }) => j.jobId) as string[];
      };
      assert.deepEqual(await list('sid=p-one'), [a.jobId]);
      assert.deepEqual(await list(`tracking_id=${encodeURIComponent('T_1%')}`), [a.jobId]);
      assert.deepEqual(await list('tracking_id=T-1x'), [b.jobId]);
      assert.deepEqual(await list('tracking_id=T'), [], 'a tracking id matches whole, not as a prefix');
      assert.deepEqual(await list('tracking_id=T_1'), [], 'wildcards are literal');
      const created = Date.parse(a.createdAt);
      assert.ok((await list(`from=${new Date(created).toISOString()}`)).includes(a.jobId));
      assert.deepEqual(await list(`to=${new Date(created - 60_000).toISOString()}`), []);
      assert.equal((await svc.request({ method: 'GET', url: '/asr/jobs?from=yesterday', headers: as('read') })).statusCode, 400);
    });
  });
}
