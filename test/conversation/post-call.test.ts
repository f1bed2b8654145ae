// Post-call processing through the API (issue 18): status received -> processed with events, the enriched
// record's figures, insights from the record and from the project configuration, refusal of a bad expression
// (400 naming problem and position, nothing stored), insight redaction through the core, and the same record
// processed twice giving the same answer (must-shows 1, 2, 3).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';
import { HAND_CALL, HAND_FIGURES } from './fixture.js';

const DISCLOSURE = { id: 'recorded-line', name: 'Recorded line', expression: '"thanks for calling"', channel: 0, complianceViolation: true };
const CALLER_ONLY = { id: 'caller-phrase', expression: '"thanks for calling"', channel: 1 };
const MISSING = { id: 'mini-miranda', expression: '"attempt to collect"', channel: 0, complianceViolation: true, alert: true, alertMessage: 'disclosure missing' };
const QUESTION = { id: 'help', expression: 'need help', response: 'sure OR certainly', searchLinesAfter: 1 };

for (const dialect of await dialects()) {
  describe(`post-call processing (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService(dialect);
    });
    after(() => svc.close());
    const post = (payload: object) => svc.request({ method: 'POST', url: '/system/cache/post-call', payload });

    test('the hand-built call is processed: exact figures, insights, events', async () => {
      const res = await post({ ...HAND_CALL, insights: [DISCLOSURE, CALLER_ONLY, MISSING, QUESTION] });
      assert.equal(res.statusCode, 201, res.body);
      const r = json(res);
      assert.equal(r.status, 'processed');
      assert.equal(r.analytics.total_duration, HAND_FIGURES.duration);
      assert.equal(r.analytics.silence, HAND_FIGURES.silence);
      assert.equal(r.analytics.overtalk, HAND_FIGURES.overtalk.total);
      assert.equal(r.analytics.overtalk_count, HAND_FIGURES.overtalk.count);
      assert.equal(r.analytics.overtalk_average, HAND_FIGURES.overtalk.average);
      assert.equal(r.analytics.talk_time_agent, HAND_FIGURES.agent.talkTime);
      assert.equal(r.analytics.talk_time_caller, HAND_FIGURES.caller.talkTime);
      assert.equal(r.analytics.speaker_changes, HAND_FIGURES.speakerChanges);
      assert.deepEqual(r.analytics.interruptions, HAND_FIGURES.interruptions);
      assert.deepEqual([r.analytics.interruptions_agent, r.analytics.interruptions_caller], [0, 2]);
      assert.deepEqual(r.analytics.non_talk, HAND_FIGURES.nonTalk);
      assert.equal(r.conversation.agentUtterances, HAND_FIGURES.agent.utterances);
      assert.equal(r.conversation.callerUtterances, HAND_FIGURES.caller.utterances);
      assert.equal(r.segmentsCreated, 5);
      assert.deepEqual(r.utterances.map((u: { speaker: number }) => u.speaker), [0, 1, 0, 1, 0]);

      // The agent's disclosure: line 0, said from 1 s; the same phrase required of the caller: not found.
      const lines = r.insightLines.filter((l: { insightId: string }) => l.insightId === 'recorded-line');
      assert.deepEqual(lines.map((l: { line: number; timestamp: number; speaker: number }) => [l.line, l.timestamp, l.speaker]), [[0, 1, 0]]);
      assert.equal(r.insightLines.filter((l: { insightId: string }) => l.insightId === 'caller-phrase').length, 0);
      const byId = Object.fromEntries(r.analytics.insights.map((i: { id: string }) => [i.id, i]));
      assert.equal(byId['recorded-line'].type, 'match');
      assert.equal(byId['recorded-line'].complianceViolation, false);
      assert.equal(byId['caller-phrase'].type, 'no_match');
      assert.equal(byId['mini-miranda'].type, 'compliance_violation');
      assert.equal(byId['mini-miranda'].complianceViolation, true);
      // The caller's question and the agent's answer on the next line are linked.
      const help = r.insightLines.find((l: { insightId: string }) => l.insightId === 'help');
      assert.equal(help.line, 1);
      assert.equal(help.hasResponse, true);
      assert.equal(help.responseLine, 2);
      assert.equal(r.insightsCreated, r.insightLines.length);
      assert.ok(r.insights.every((i: { expressionValidated?: boolean }) => i.expressionValidated === true));
      assert.equal(r.insights.find((i: { id: string }) => i.id === 'help').responseValidated, true);

      const events = await svc.services.store.database.db.selectFrom('events').select(['sub_type']).where('subject', '=', 'hand-call').execute();
      assert.deepEqual(events.map((e) => e.sub_type).sort(), ['processed', 'received']);
    });

    test('the same record processed twice gives the same result', async () => {
      const record = { ...HAND_CALL, eventId: 'twice', insights: [DISCLOSURE, QUESTION], campaign: { agentLocation: 'left', enableProfanityFiltering: true } };
      const first = json(await post(record));
      const second = json(await post(record));
      assert.deepEqual(second, first);
    });

    test('a bad expression is refused naming the problem and its position; nothing is stored', async () => {
      const res = await post({ ...HAND_CALL, eventId: 'bad-expr', insights: [DISCLOSURE, { id: 'bad', expression: '"thanks for' }] });
      assert.equal(res.statusCode, 400, res.body);
      const problem = json(res);
      assert.equal(problem.errors[0].pointer, '/insights/1/expression');
      assert.match(problem.errors[0].message, /unclosed quote at position 0/);
      assert.match(problem.detail ?? problem.title, /insights\[1\]\.expression/);
      assert.equal((await svc.request({ method: 'GET', url: '/cache/post-call/bad-expr' })).statusCode, 404);
    });

    test('project insights: publish validates them, and a record of the project runs them', async () => {
      const bad = await svc.request({ method: 'POST', url: '/system/cache/v2/publish', payload: { data: JSON.stringify({ sid: 'proj-ins', insights: [{ id: 'x', expression: 'hello AND' }] }) } });
      assert.equal(bad.statusCode, 400, bad.body);
      assert.equal(json(bad).errors[0].pointer, '/data/insights/0/expression');
      const good = await svc.request({ method: 'POST', url: '/system/cache/v2/publish', payload: { data: JSON.stringify({ sid: 'proj-ins', scrubtext: false, insights: [DISCLOSURE] }) } });
      assert.equal(good.statusCode, 200, good.body);
      const r = json(await post({ ...HAND_CALL, eventId: 'from-project', redactionRequest: { sid: 'proj-ins' } }));
      assert.deepEqual(r.insightLines.map((l: { insightId: string; line: number }) => [l.insightId, l.line]), [['recorded-line', 0]]);
    });

    test('an insight that redacts its text masks the phrase everywhere, through the core', async () => {
      const res = await post({ ...HAND_CALL, eventId: 'insight-redact', insights: [{ id: 'greet', expression: '"thanks for calling"', redactText: true }] });
      assert.equal(res.statusCode, 201, res.body);
      assert.ok(!res.body.toLowerCase().includes('thanks for calling'), 'the phrase is gone from every field');
      const r = json(res);
      assert.match(r.utterances[0].text, /\[INSIGHT\]/);
      assert.equal(r.insightLines[0].isRedaction, true);
      assert.equal(r.analytics.talk_time_agent, HAND_FIGURES.agent.talkTime, 'the mask keeps the times of the words it covers');
    });

    test('switches: sentiment, key phrases and insights off', async () => {
      const r = json(await post({ ...HAND_CALL, eventId: 'switched-off', insights: [DISCLOSURE], campaign: { agentLocation: 'left', enableSentimentAnalysis: false, enableKeywords: false, enableInsights: false } }));
      assert.equal(r.analytics.sentiment_agent, undefined);
      assert.equal(r.keyPhrases, undefined);
      assert.equal(r.insightLines, undefined);
      assert.equal(r.analytics.silence, HAND_FIGURES.silence, 'figures from times always run');
    });

    test("retention: the shorter of the campaign's and the project's retentionPolicy (or an earlier deleteDate) sets conversation.deleteDate; the sweep deletes the record then", async () => {
      const published = await svc.request({ method: 'POST', url: '/system/cache/v2/publish', payload: { data: JSON.stringify({ sid: 'ten-days', retentionPolicy: 10 }) } });
      assert.equal(published.statusCode, 200, published.body);
      const days = (r: { conversation?: { deleteDate?: string } }) => (r.conversation?.deleteDate ? Math.round((Date.parse(r.conversation.deleteDate) - Date.now()) / 86_400_000) : null);
      const sent = async (eventId: string, extra: Record<string, unknown>) => {
        const res = await post({ ...HAND_CALL, eventId, ...extra });
        assert.equal(res.statusCode, 201, res.body);
        return json(res);
      };
      const byProject = await sent('kept-ten', { redactionRequest: { sid: 'ten-days' } });
      const byCampaign = await sent('kept-three', { campaign: { ...HAND_CALL.campaign, retentionPolicy: 3 }, redactionRequest: { sid: 'ten-days' } });
      const longer = await sent('kept-longer', { campaign: { ...HAND_CALL.campaign, retentionPolicy: 30 }, redactionRequest: { sid: 'ten-days' } });
      const byDate = await sent('kept-date', { conversation: { deleteDate: new Date(Date.now() + 86_400_000).toISOString() } });
      const forever = await sent('kept-forever', {});
      assert.deepEqual([byProject, byCampaign, longer, byDate, forever].map(days), [10, 3, 10, 1, null]);
      const stored = await svc.services.store.conversations.get('kept-three');
      assert.equal(stored!.deleteAfter, byCampaign.conversation.deleteDate, 'the row is due when the record says');

      await svc.services.retention.sweep(new Date(Date.now() + 5 * 86_400_000));
      const left = async (id: string) => (await svc.request({ method: 'GET', url: `/system/cache/post-call/${id}` })).statusCode;
      assert.deepEqual(await Promise.all(['kept-ten', 'kept-three', 'kept-longer', 'kept-date', 'kept-forever'].map(left)), [200, 404, 200, 404, 200]);
      const events = json(await svc.request({ method: 'GET', url: '/system/events?subject=kept-three' })).events;
      assert.ok(events.some((e: { subType: string }) => e.subType === 'deleted'), JSON.stringify(events));
    });
  });
}
