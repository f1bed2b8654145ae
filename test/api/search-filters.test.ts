// GET /asr/search filters by category (an insight that matched), violation (an insight that was a compliance
// violation) and sentiment (the call's, the agent's, the caller's), and lists calls by filters alone; the insight
// summary counts the analysed calls, talk time and the caller's sentiment per group; and the start-up backfill
// brings calls stored before search and insight counts level — on both stores. Never unredacted text.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';

const INSIGHTS = [
  { id: 'refund', name: 'Refund asked', expression: 'refund' },
  { id: 'greeting', name: 'Greeting', expression: '"thank you for calling"', complianceViolation: true },
];
// Two calls, hand-labelled: the angry one asks for a refund and is never greeted (a violation); the happy one is
// greeted and asks for no refund. Both give a name that is masked.
const ANGRY = ['hello', 'this is terrible and awful my name is john smith i hate this horrible broken service i want a refund', 'i am sorry', 'worst experience ever i am furious'];
const HAPPY = ['thank you for calling how can i help', 'thank you so much this is wonderful and great my name is mary jones', 'glad to help', 'excellent i love it perfect thanks'];

for (const dialect of await dialects()) {
  describe(`search filters, summary figures and the backfill (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService(dialect);
      for (const [eventId, lines] of [['flt-angry', ANGRY], ['flt-happy', HAPPY]] as const) {
        const posted = await svc.request({
          method: 'POST',
          url: '/cache/post-call',
          payload: {
            eventId,
            campaign: { enableTextRedaction: true },
            conversation: { agentId: '11111111-1111-4111-8111-111111111111' },
            insights: INSIGHTS,
            utterances: lines.map((text, i) => ({ text, speaker: i % 2, channel: i % 2, start: i * 4, end: i * 4 + 3 })),
          },
        });
        assert.equal(posted.statusCode, 201, posted.body);
      }
    });
    after(() => svc.close());

    async function ids(query: string): Promise<string[]> {
      const res = await svc.request({ method: 'GET', url: `/asr/search?${query}` });
      assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
      assert.doesNotMatch(res.body, /john|smith|mary|jones/i, `${query}: a masked name came back`);
      return (json(res).results as { id: string }[]).map((r) => r.id).filter((id) => id.startsWith('flt-'));
    }

    test('the stored records carry what the filters read', async () => {
      const angry = json(await svc.request({ method: 'GET', url: '/cache/post-call/flt-angry' }));
      assert.equal(angry.analytics.sentiment_caller, 'negative', JSON.stringify(angry.analytics));
      const happy = json(await svc.request({ method: 'GET', url: '/cache/post-call/flt-happy' }));
      assert.equal(happy.analytics.sentiment_caller, 'positive', JSON.stringify(happy.analytics));
    });

    test('by category, violation and sentiment, with words and without', async () => {
      assert.deepEqual((await ids('q=service&category=refund')), ['flt-angry']);
      assert.deepEqual((await ids('category=refund')), ['flt-angry']);
      assert.deepEqual((await ids('violation=greeting')), ['flt-angry']);
      assert.deepEqual((await ids('category=greeting')), ['flt-happy']);
      assert.deepEqual((await ids('callerSentiment=negative')), ['flt-angry']);
      assert.deepEqual((await ids('callerSentiment=positive')), ['flt-happy']);
      assert.deepEqual((await ids('callerSentiment=positive&violation=greeting')), []);
      assert.deepEqual((await ids('category=no-such-insight')), []);
      assert.deepEqual((await ids('q=thank&callerSentiment=negative')), []);
      // Without words: every indexed call, newest first, each with the opening of its redacted text.
      assert.deepEqual(await ids(''), ['flt-happy', 'flt-angry']);
      const listed = json(await svc.request({ method: 'GET', url: '/asr/search?category=refund' })).results[0];
      assert.match(listed.snippet, /^hello/);
    });

    test('a bad filter value is a clear 400', async () => {
      for (const q of ['sentiment=angry', 'callerSentiment=', 'category=', 'violation=%00', 'q=%22%22']) {
        const res = await svc.request({ method: 'GET', url: `/asr/search?${q}` });
        assert.equal(res.statusCode, 400, `${q}: ${res.body}`);
      }
    });

    test('the summary counts the analysed calls, their talk time and the caller\'s sentiment per group', async () => {
      const res = await svc.request({ method: 'GET', url: '/asr/insights/summary?groupBy=agent&agent=11111111-1111-4111-8111-111111111111' });
      assert.equal(res.statusCode, 200, res.body);
      const calls = json(res).calls as { group: string; calls: number; talkTimeAgent: number; talkTimeCaller: number; callerSentiment: Record<string, number> }[];
      assert.equal(calls.length, 1, res.body);
      assert.equal(calls[0].calls, 2);
      assert.deepEqual(calls[0].callerSentiment, { negative: 1, neutral: 0, positive: 1 });
      assert.ok(calls[0].talkTimeAgent > 0 && calls[0].talkTimeCaller > 0, res.body);
    });

    test('deleting a call deletes its figures', async () => {
      const posted = await svc.request({ method: 'POST', url: '/cache/post-call', payload: { eventId: 'flt-gone', campaign: { enableTextRedaction: true }, insights: INSIGHTS, utterances: ANGRY.map((text) => ({ text })) } });
      assert.equal(posted.statusCode, 201, posted.body);
      const count = async () => Number((await sql<{ n: number }>`select count(*) as n from call_figures where ref_id = 'flt-gone'`.execute(svc.services.store.database.db)).rows[0].n);
      assert.equal(await count(), 1);
      assert.equal(await svc.services.store.conversations.delete('flt-gone'), true);
      assert.equal(await count(), 0);
    });

    test('the backfill indexes, counts and keeps the figures of calls stored before them; never a record stored as sent', async () => {
      const db = svc.services.store.database.db;
      // A job and two records as stored before migrations 0015-0017: no search entry, no insight hit, no figures.
      const res = await svc.request({
        method: 'POST',
        url: '/asr/transcribe?wait=300',
        payload: { text: ['Agent: thank you for calling', 'Caller: my name is john smith and the toaster caught fire, this is terrible'].join('\n'), types: ['Person'], analytics: true },
      });
      assert.equal(res.statusCode, 200, res.body);
      const jobId = json(res).jobId as string;
      const old = await svc.request({ method: 'POST', url: '/cache/post-call', payload: { eventId: 'flt-old', campaign: { enableTextRedaction: true }, insights: INSIGHTS, utterances: ANGRY.map((text, i) => ({ text: `${text} kumquat`, speaker: i % 2, channel: i % 2, start: i * 4, end: i * 4 + 3 })) } });
      assert.equal(old.statusCode, 201, old.body);
      const plain = await svc.request({ method: 'POST', url: '/cache/post-call', payload: { eventId: 'flt-plain', campaign: { enableTextRedaction: false }, utterances: [{ text: 'the kumquat order of john smith' }] } });
      assert.equal(plain.statusCode, 201, plain.body);
      for (const table of ['search_entries', 'insight_hits', 'call_figures']) {
        await sql`delete from ${sql.table(table)} where ref_id in (${jobId}, 'flt-old', 'flt-plain')`.execute(db);
      }
      for (const [kind, id] of [['job', jobId], ['record', 'flt-old'], ['record', 'flt-plain'], ['record', 'flt-deleted-since']] as const) await svc.services.store.backfill.add(kind, id);
      assert.deepEqual(await ids('q=kumquat'), []);
      const before = json(await svc.request({ method: 'GET', url: `/asr/search?q=toaster` })).results as { id: string }[];
      assert.equal(before.some((r) => r.id === jobId), false);

      assert.equal(await svc.services.backfill.run(), 4);
      assert.equal(await svc.services.store.backfill.size(), 0);
      assert.deepEqual(await ids('q=kumquat'), ['flt-old'], 'the redacted record is found; the one stored as sent is not');
      assert.deepEqual(await ids('q=kumquat&violation=greeting&callerSentiment=negative'), ['flt-old']);
      const job = json(await svc.request({ method: 'GET', url: '/asr/search?q=toaster' })).results as { id: string; snippet: string }[];
      const hit = job.find((r) => r.id === jobId);
      assert.ok(hit, JSON.stringify(job));
      assert.doesNotMatch(hit.snippet, /john|smith/);
      assert.ok((await ids('q=john')).length === 0 && !(json(await svc.request({ method: 'GET', url: '/asr/search?q=john' })).results as { id: string }[]).some((r) => r.id === jobId));
      const figures = (await sql<{ kind: string; ref_id: string; sentiment_caller: string | null }>`select kind, ref_id, sentiment_caller from call_figures where ref_id in (${jobId}, 'flt-old', 'flt-plain') order by kind`.execute(db)).rows;
      assert.deepEqual(figures.map((f) => [f.kind, f.ref_id]), [['job', jobId], ['record', 'flt-old'], ['record', 'flt-plain']]);
      assert.equal(figures.find((f) => f.ref_id === jobId)?.sentiment_caller, 'negative');
      // Run again: nothing owed.
      assert.equal(await svc.services.backfill.run(), 0);
    });
  });
}
