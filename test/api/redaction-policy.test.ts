// One redaction policy on every path, through HTTP on both stores: each "asked and got nothing" case of issue
// 14 is now either redacted (the seeded card number and name are gone from the job's transcripts, its record
// and its stored rows, or from the stored post-call record / live message) or refused with a 400 naming the
// field. A project's required redaction cannot be switched off by a submit key; an admin key can, and that
// is an event.
import assert from 'node:assert/strict';
import type { InjectOptions } from 'fastify';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_KINDS, ENTITY_KINDS } from '../../src/redact/entityKinds.js';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';
import { multipart } from '../helpers/multipart.js';

// The name and the card in turns of their own: a card number read out masks its speaker's whole turn by default
// (issue 31), so a name said in the card's turn would go with it whatever kinds were asked.
const TEXT = ['Agent: may i have your name please', 'Caller: my name is john smith', 'Agent: and the card number please', 'Caller: my card is 4111 1111 1111 1111'].join('\n');
const NAME = ['john', 'smith'];
const CARD = ['4111'];
const ALL = [...DEFAULT_KINDS];

for (const dialect of await dialects()) {
  describe(`redaction policy (${dialect})`, () => {
    let svc: TestService;
    const keys: Record<'submit' | 'admin', string> = { submit: '', admin: '' };

    before(async () => {
      // No cache of key lookups: the keys made here work at once.
      svc = await startTestService(dialect, { env: { SCRUBLINE_AUTH_CACHE_MS: '0' } });
      keys.submit = (await svc.services.store.apiKeys.create('policy submit', 'submit')).key;
      keys.admin = (await svc.services.store.apiKeys.create('policy admin', 'admin')).key;
      const publish = async (config: object) => {
        const res = await request({ method: 'POST', url: '/system/cache/v2/publish', payload: { data: JSON.stringify(config) } }, 'admin');
        assert.equal(res.statusCode, 200, res.body);
      };
      await publish({ sid: 'everything', scrubtext: true });
      await publish({ sid: 'cards', scrubtext: true, rules: [{ name: 'creditCardNumber', active: true, mask_type: 'Placeholder', setting: '[CARD]' }] });
    });
    after(() => svc.close());

    function request(options: InjectOptions, key: keyof typeof keys = 'submit') {
      return svc.request({ ...options, headers: { ...options.headers, authorization: `Bearer ${keys[key]}` } });
    }

    /** A finished job from a submit (JSON body or multipart fields); asserted completed. */
    async function submit(body: { json?: object; fields?: Record<string, string>; query?: string }, key: keyof typeof keys = 'submit') {
      const url = `/asr/transcribe?wait=300${body.query ?? ''}`;
      const res = body.fields
        ? await request({ method: 'POST', url, ...multipart({ text: TEXT, ...body.fields }, []) }, key)
        : await request({ method: 'POST', url, payload: { text: TEXT, ...body.json } }, key);
      assert.equal(res.statusCode, 200, res.body);
      const job = json(res);
      assert.equal(job.status, 'completed', job.message);
      return job;
    }

    /** Everything a job shows or keeps: its record, every transcript shape, its stored rows; lower case. */
    async function everything(jobId: string): Promise<string> {
      const parts = [(await request({ method: 'GET', url: `/asr/jobs/${jobId}` })).body];
      for (const format of ['vendorA', 'vendorB', 'transcript', 'utterances', 'text', 'srt', 'vtt']) {
        const res = await request({ method: 'GET', url: `/asr/jobs/${jobId}/transcript?format=${format}` });
        assert.equal(res.statusCode, 200, `${format}: ${res.body}`);
        parts.push(res.body);
      }
      const db = svc.services.store.database.db;
      parts.push(JSON.stringify(await db.selectFrom('job_results').selectAll().where('job_id', '=', jobId).execute()));
      parts.push(JSON.stringify(await db.selectFrom('jobs').selectAll().where('id', '=', jobId).execute()));
      return parts.join('\n').toLowerCase();
    }

    async function assertGone(jobId: string, values: string[]) {
      const all = await everything(jobId);
      for (const value of values) assert.ok(!all.includes(value), `"${value}" survived in job ${jobId}`);
    }

    async function assertKept(jobId: string, values: string[]) {
      const text = (await request({ method: 'GET', url: `/asr/jobs/${jobId}/transcript?format=text` })).body.toLowerCase();
      for (const value of values) assert.ok(text.includes(value), `"${value}" was redacted in job ${jobId}: ${text}`);
    }

    function assertRefused(res: { statusCode: number; body: string }, pointer: string, detail?: RegExp) {
      assert.equal(res.statusCode, 400, res.body);
      const problem = json(res);
      assert.ok(problem.errors.some((e: { pointer: string }) => e.pointer === pointer), `${pointer} named: ${res.body}`);
      if (detail) assert.match(problem.detail, detail);
    }

    test('multipart types given as a JSON list: both kinds redacted', async () => {
      const job = await submit({ fields: { types: '["Person","CreditCardNumber"]' } });
      assert.equal(job.redactionStatus, 'completed');
      assert.deepEqual(job.redaction.policy.kinds, ['Person', 'CreditCardNumber']);
      await assertGone(job.jobId, [...NAME, ...CARD]);
      for (const format of ['vendorA', 'vendorB', 'transcript', 'utterances']) {
        const body = (await request({ method: 'GET', url: `/asr/jobs/${job.jobId}/transcript?format=${format}` })).body;
        assert.ok(!body.includes('redactionPolicy'), `${format}: the resolved policy is not echoed as a request flag`);
      }
      assert.deepEqual(job.request.types, ['Person', 'CreditCardNumber'], 'the kinds as canonical names');
    });

    test('types that are not kinds (SSN, CreditCard) are a 400 naming /types and the valid kinds, in form, query and JSON', async () => {
      const valid = /CreditCardNumber.*USSocialSecurityNumber|USSocialSecurityNumber.*CreditCardNumber/;
      const count = async () => (await svc.services.store.jobs.list({ limit: 1, offset: 0 })).total;
      const before = await count();
      assertRefused(await request({ method: 'POST', url: '/asr/transcribe', ...multipart({ text: TEXT, types: 'SSN,CreditCard' }, []) }), '/types', valid);
      assertRefused(await request({ method: 'POST', url: '/asr/transcribe?types=SSN', payload: { text: TEXT } }), '/types', /"SSN"/);
      assertRefused(await request({ method: 'POST', url: '/asr/transcribe', payload: { text: TEXT, types: ['Person', 'CreditCard'] } }), '/types', /"CreditCard"/);
      assert.equal(await count(), before, 'no job was made');
    });

    test('kind names in any letter case and with surrounding spaces are accepted', async () => {
      for (const types of ['creditcardnumber', 'CreditCardNumber ']) {
        const job = await submit({ fields: { types } });
        assert.deepEqual(job.redaction.policy.kinds, ['CreditCardNumber'], types);
        await assertGone(job.jobId, CARD);
        await assertKept(job.jobId, NAME);
      }
    });

    test('types=all is every kind', async () => {
      const job = await submit({ fields: { types: 'all' } });
      assert.deepEqual(job.redaction.policy.kinds, ALL);
      await assertGone(job.jobId, [...NAME, ...CARD]);
    });

    test('query and form combine: the kinds are the union, a scrub flag on in either place is on', async () => {
      const union = await submit({ query: '&types=Person', fields: { types: 'CreditCardNumber' } });
      assert.deepEqual(union.redaction.policy.kinds, ['Person', 'CreditCardNumber']);
      await assertGone(union.jobId, [...NAME, ...CARD]);
      const bracketed = await submit({ query: '&types[]=Person', fields: { 'types[]': 'CreditCardNumber' } });
      assert.deepEqual(bracketed.redaction.policy.kinds, ['Person', 'CreditCardNumber'], 'types[] is types');
      const flag = await submit({ query: '&scrubtext=true', fields: { scrubtext: 'false' } });
      assert.deepEqual(flag.redaction.policy.kinds, ALL);
      await assertGone(flag.jobId, [...NAME, ...CARD]);
    });

    test('scrubtext with no types on a text job redacts every kind: the card number and the name', async () => {
      const job = await submit({ json: { scrubtext: true } });
      assert.equal(job.redactionStatus, 'completed');
      assert.deepEqual(job.redaction.policy, { kinds: ALL, text: true, audio: false });
      await assertGone(job.jobId, [...NAME, ...CARD]);
    });

    test('a sid that names no published project, or only a case variant of one, is a 400 at /sid', async () => {
      assertRefused(await request({ method: 'POST', url: '/asr/transcribe', ...multipart({ text: TEXT, sid: '' }, []) }), '/sid');
      assertRefused(await request({ method: 'POST', url: '/asr/transcribe', payload: { text: TEXT, sid: 'no-such-project', scrubtext: true } }), '/sid');
      assertRefused(await request({ method: 'POST', url: '/asr/transcribe', payload: { text: TEXT, sid: 'no-such-project' } }), '/sid');
      assertRefused(await request({ method: 'POST', url: '/asr/transcribe', payload: { text: TEXT, sid: 'Cards' } }), '/sid', /did you mean "cards"/);
    });

    test('a project that scrubs with no rules redacts every kind, pending from submit even when the request says nothing', async () => {
      const res = await request({ method: 'POST', url: '/asr/transcribe', payload: { text: TEXT, sid: 'everything' } });
      assert.equal(res.statusCode, 202, res.body);
      assert.equal(json(res).redactionStatus, 'pending');
      const job = json(await request({ method: 'GET', url: `/asr/jobs/${json(res).jobId}?wait=300` }));
      assert.equal(job.redactionStatus, 'completed');
      assert.deepEqual(job.redaction.policy, { kinds: ALL, text: true, audio: false, sid: 'everything', version: 1 });
      await assertGone(job.jobId, [...NAME, ...CARD]);
    });

    test('publishing a rule that names no kind is refused whole', async () => {
      const before = await svc.services.store.projects.versions('cards');
      const res = await request(
        { method: 'POST', url: '/system/cache/v2/publish', payload: { data: JSON.stringify({ sid: 'cards', scrubtext: true, rules: [{ name: 'CreditCard' }] }) } },
        'admin',
      );
      assertRefused(res, '/data/rules/0/name', /CreditCardNumber/);
      assert.deepEqual(await svc.services.store.projects.versions('cards'), before, 'nothing published');
    });

    test('scrubtext=false from a submit key cannot remove the project\'s redaction; from an admin key it can, and that is an event', async () => {
      const kept = await submit({ json: { sid: 'cards', scrubtext: false } });
      assert.deepEqual(kept.redaction.policy, { kinds: ['CreditCardNumber'], text: true, audio: false, sid: 'cards', version: 1 });
      await assertGone(kept.jobId, CARD);
      assert.match((await request({ method: 'GET', url: `/asr/jobs/${kept.jobId}/transcript?format=text` })).body, /\[CARD\]/, 'the project\'s mask');

      const lowered = await submit({ json: { sid: 'cards', scrubtext: false } }, 'admin');
      assert.equal(lowered.redactionStatus, 'not_requested');
      await assertKept(lowered.jobId, [...CARD, ...NAME]);
      const events = json(await request({ method: 'GET', url: '/system/events?type=job&limit=500' }, 'admin')).events;
      const event = events.find((e: { subType: string; jobId: string }) => e.subType === 'redaction_lowered' && e.jobId === lowered.jobId);
      assert.ok(event, 'the lowering is an event');
      assert.ok(!events.some((e: { subType: string; jobId: string }) => e.subType === 'redaction_lowered' && e.jobId === kept.jobId));
    });

    test('a resubmit cannot lower a job\'s redaction: the old policy and the new are united', async () => {
      const first = await submit({ json: { types: ['CreditCardNumber'] } });
      const res = await request({ method: 'POST', url: '/asr/transcribe?wait=300', payload: { jobId: first.jobId, text: TEXT, scrubtext: false, types: ['Person'] } }, 'admin');
      assert.equal(res.statusCode, 200, res.body);
      const again = json(res);
      assert.deepEqual(again.redaction.policy.kinds, ['Person', 'CreditCardNumber']);
      await assertGone(again.jobId, [...NAME, ...CARD]);
    });

    describe('records', () => {
      const record = (eventId: string, extra: object) => ({ eventId, utterances: [{ text: 'my name is john smith and my card is 4111 1111 1111 1111' }], ...extra });
      const post = (body: object, key: keyof typeof keys = 'submit') => request({ method: 'POST', url: '/cache/post-call', payload: body }, key);
      async function stored(eventId: string): Promise<string> {
        const row = await svc.services.store.database.db.selectFrom('conversations').selectAll().where('event_id', '=', eventId).execute();
        const answer = await request({ method: 'GET', url: `/cache/post-call/${eventId}` });
        return `${JSON.stringify(row)}\n${answer.body}`.toLowerCase();
      }

      test('post-call: enableTextRedaction true with no types redacts every kind; the policy is stored with the record', async () => {
        const res = await post(record('policy-on', { campaign: { enableTextRedaction: true } }));
        assert.equal(res.statusCode, 201, res.body);
        assert.deepEqual(json(res).redaction.policy.kinds, ALL);
        const all = await stored('policy-on');
        for (const value of [...NAME, ...CARD]) assert.ok(!all.includes(value), `"${value}" survived in the stored record`);
      });

      test('post-call: enableTextRedaction false cannot switch off the project\'s redaction, except from an admin key (an event)', async () => {
        const res = await post(record('policy-off', { campaign: { enableTextRedaction: false }, redactionRequest: { sid: 'cards' } }));
        assert.equal(res.statusCode, 201, res.body);
        const all = await stored('policy-off');
        assert.ok(!all.includes('4111'), 'the card number is gone');
        assert.match(json(res).utterances[0].text, /\[CARD\]/);

        const admin = await post(record('policy-lowered', { campaign: { enableTextRedaction: false }, redactionRequest: { sid: 'cards' } }), 'admin');
        assert.equal(admin.statusCode, 201, admin.body);
        assert.match(json(admin).utterances[0].text, /4111 1111 1111 1111/);
        const events = json(await request({ method: 'GET', url: '/system/events?type=conversation&subject=policy-lowered' }, 'admin')).events;
        assert.ok(events.some((e: { subType: string }) => e.subType === 'redaction_lowered'), 'an event');
        const others = json(await request({ method: 'GET', url: '/system/events?type=conversation&subject=policy-off' }, 'admin')).events;
        assert.ok(!others.some((e: { subType: string }) => e.subType === 'redaction_lowered'), 'no event where nothing was lowered');
      });

      test('post-call: kinds that are not kinds and unknown sids are a 400 at their field; nothing is stored', async () => {
        assertRefused(await post(record('bad-types', { redactionRequest: { types: ['SSN'] } })), '/redactionRequest/types', /"SSN"/);
        assertRefused(await post(record('bad-job-types', { processJob: { request: { types: ['CreditCard'] } } })), '/processJob/request/types');
        assertRefused(await post(record('bad-sid', { redactionRequest: { sid: 'CARDS' } })), '/redactionRequest/sid', /did you mean "cards"/);
        assertRefused(await post(record('bad-job-sid', { processJob: { request: { sid: 'nowhere' } } })), '/processJob/request/sid');
        for (const eventId of ['bad-types', 'bad-job-types', 'bad-sid', 'bad-job-sid']) {
          assert.equal((await request({ method: 'GET', url: `/cache/post-call/${eventId}` })).statusCode, 404, eventId);
        }
      });

      test('real-call honours redactionRequest.types and campaign.enableTextRedaction', async () => {
        const typed = await request({
          method: 'POST',
          url: '/cache/real-call',
          payload: { redactionRequest: { types: ['creditcardnumber'] }, realTimeMessage: { ucid: 'policy-rt', text: 'my name is john smith and my card is 4111 1111 1111 1111' } },
        });
        assert.equal(typed.statusCode, 200, typed.body);
        const text = json(typed).realTimeMessage.text;
        assert.doesNotMatch(text, /4111/);
        assert.match(text, /john smith/, 'only the kinds asked');

        const everything = await request({
          method: 'POST',
          url: '/cache/real-call',
          payload: { campaign: { enableTextRedaction: true }, realTimeMessage: { ucid: 'policy-rt', text: 'my name is john smith and my card is 4111 1111 1111 1111' } },
        });
        assert.equal(everything.statusCode, 200, everything.body);
        assert.doesNotMatch(json(everything).realTimeMessage.text, /4111|john|smith/);
        const rows = JSON.stringify(await svc.services.store.database.db.selectFrom('live_messages').selectAll().execute());
        assert.ok(!rows.includes('4111'), 'no card number stored');

        assertRefused(
          await request({ method: 'POST', url: '/cache/real-call', payload: { redactionRequest: { types: ['SSN'] }, realTimeMessage: { ucid: 'policy-rt', text: 'x' } } }),
          '/redactionRequest/types',
        );
        assertRefused(
          await request({ method: 'POST', url: '/cache/real-call', payload: { redactionRequest: { sid: 'nowhere' }, realTimeMessage: { ucid: 'policy-rt', text: 'x' } } }),
          '/redactionRequest/sid',
        );
      });
    });
  });
}
