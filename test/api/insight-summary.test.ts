// GET /asr/insights/summary (issue 35), on both stores: insight results of post-call records counted per day,
// agent and campaign, exactly as worked out by hand; filters; a deleted record no longer counts; ids and counts
// only, never a call's text (so never a value redaction masked).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';
import { until } from '../helpers/poll.js';

const A1 = '11111111-1111-4111-8111-111111111111';
const A2 = '22222222-2222-4222-8222-222222222222';
const C1 = '33333333-3333-4333-8333-333333333333';
const A3 = '44444444-4444-4444-8444-444444444444';
const INSIGHTS = [
  { id: 'cancel', expression: 'cancel' },
  { id: 'greeting', expression: '"thank you for calling"', complianceViolation: true },
];

for (const dialect of await dialects()) {
  describe(`insight results across calls (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService(dialect);
      // Three calls, hand-counted:
      //   r1 agent A1, campaign C1: cancel said twice (2 lines), no greeting → cancel match, greeting violation
      //   r2 agent A2, campaign C1: greeting and cancel (1 line) → both match
      //   r3 agent A1, no campaign: neither → cancel no_match, greeting violation
      const calls = [
        { eventId: 'sum-r1', conversation: { agentId: A1, campaignId: C1 }, lines: ['hello my name is john smith', 'i want to cancel', 'cancel it please'] },
        { eventId: 'sum-r2', conversation: { agentId: A2, campaignId: C1 }, lines: ['thank you for calling', 'i need to cancel my order'] },
        { eventId: 'sum-r3', conversation: { agentId: A1 }, lines: ['hi there', 'where is my parcel'] },
      ];
      for (const c of calls) {
        const posted = await svc.request({
          method: 'POST',
          url: '/cache/post-call',
          payload: { eventId: c.eventId, campaign: { enableTextRedaction: true }, conversation: c.conversation, insights: INSIGHTS, utterances: c.lines.map((text, i) => ({ text, speaker: i % 2, start: i * 3, end: i * 3 + 2 })) },
        });
        assert.equal(posted.statusCode, 201, posted.body);
      }
    });
    after(() => svc.close());

    async function summary(query: string) {
      const res = await svc.request({ method: 'GET', url: `/asr/insights/summary?${query}` });
      assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
      return json(res) as { groupBy: string; truncated: boolean; groups: { group: string | null; insights: { id: string; calls: number; matched: number; violations: number; lines: number }[] }[] };
    }

    test('per agent: calls, matches, violations and lines of each insight', async () => {
      const s = await summary('groupBy=agent');
      assert.equal(s.groupBy, 'agent');
      assert.equal(s.truncated, false);
      assert.deepEqual(s.groups, [
        { group: A1, insights: [{ id: 'cancel', calls: 2, matched: 1, violations: 0, lines: 2 }, { id: 'greeting', calls: 2, matched: 0, violations: 2, lines: 0 }] },
        { group: A2, insights: [{ id: 'cancel', calls: 1, matched: 1, violations: 0, lines: 1 }, { id: 'greeting', calls: 1, matched: 1, violations: 0, lines: 1 }] },
      ]);
    });

    test('per campaign (a call with none is the null group, last) and per day', async () => {
      const s = await summary('groupBy=campaign');
      assert.deepEqual(s.groups.map((g) => [g.group, g.insights.map((i) => [i.id, i.calls, i.matched, i.violations])]), [
        [C1, [['cancel', 2, 2, 0], ['greeting', 2, 1, 1]]],
        [null, [['cancel', 1, 0, 0], ['greeting', 1, 0, 1]]],
      ]);
      const today = new Date().toISOString().slice(0, 10);
      const days = await summary('groupBy=day');
      // A run across midnight UTC would split the calls over two days: the totals are what stays fixed.
      assert.ok(days.groups.every((g) => /^\d{4}-\d{2}-\d{2}$/.test(g.group!)), JSON.stringify(days));
      const total = (id: string) => days.groups.flatMap((g) => g.insights).filter((i) => i.id === id).reduce((n, i) => n + i.calls, 0);
      assert.equal(total('cancel'), 3);
      assert.equal(total('greeting'), 3);
      assert.ok(days.groups.some((g) => g.group === today) || days.groups.length === 2);
    });

    test('filters: agent, campaign, insight, time', async () => {
      assert.deepEqual((await summary(`groupBy=agent&agent=${A2}&insight=greeting`)).groups, [{ group: A2, insights: [{ id: 'greeting', calls: 1, matched: 1, violations: 0, lines: 1 }] }]);
      assert.deepEqual((await summary(`groupBy=agent&campaign=${C1}&insight=cancel`)).groups.map((g) => g.group), [A1, A2]);
      assert.deepEqual((await summary('groupBy=day&from=2999-01-01')).groups, []);
      assert.deepEqual((await summary('groupBy=day&to=2000-01-01')).groups, []);
      const bad = await svc.request({ method: 'GET', url: '/asr/insights/summary?groupBy=week' });
      assert.equal(bad.statusCode, 400, bad.body);
      const badTime = await svc.request({ method: 'GET', url: '/asr/insights/summary?from=yesterday' });
      assert.equal(badTime.statusCode, 400, badTime.body);
    });

    test('ids and counts only: no text of a call, no masked value', async () => {
      const res = await svc.request({ method: 'GET', url: '/asr/insights/summary?groupBy=agent' });
      for (const value of ['john', 'smith', 'cancel it', 'parcel']) assert.equal(res.body.toLowerCase().includes(value), false, value);
    });

    test("a job that asked for analysis counts under the agent and campaign it was submitted with (and search filters it so); deleted, it no longer counts", async () => {
      const project = { sid: 'sum-jobs', name: 'Jobs', active: true, agent_location: 'left', inbound: true, scrubaudio: false, scrubtext: true, rules: [], insights: INSIGHTS };
      const published = await svc.request({ method: 'POST', url: '/system/cache/v2/publish', payload: { data: JSON.stringify(project) } });
      assert.equal(published.statusCode, 200, published.body);
      const res = await svc.request({
        method: 'POST',
        url: '/asr/transcribe?wait=300',
        payload: { text: 'Agent: thank you for calling\nCaller: i want to cancel my plan', types: ['Person'], sid: 'sum-jobs', insights: ['*'], agent: A3, campaign: C1 },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(json(res).status, 'completed', res.body);
      // Kept once the job has finished (after its answer): waited for, not timed.
      const s = await until(async () => {
        const got = await summary('groupBy=agent&sid=sum-jobs');
        return got.groups.length > 0 ? got : undefined;
      }, 'the job counted');
      assert.deepEqual(s.groups, [{ group: A3, insights: [{ id: 'cancel', calls: 1, matched: 1, violations: 0, lines: 1 }, { id: 'greeting', calls: 1, matched: 1, violations: 0, lines: 1 }] }]);
      assert.deepEqual((await summary(`groupBy=campaign&sid=sum-jobs`)).groups.map((g) => g.group), [C1]);
      // Search filters the job by the same agent and campaign.
      const found = await svc.request({ method: 'GET', url: `/asr/search?q=cancel&agent=${A3}&campaign=${C1}` });
      assert.equal(found.statusCode, 200, found.body);
      assert.deepEqual((json(found).results as { id: string; agentId?: string }[]).map((r) => [r.id, r.agentId]), [[json(res).jobId, A3]]);
      const deleted = await svc.request({ method: 'DELETE', url: `/asr/jobs/${json(res).jobId}` });
      assert.ok(deleted.statusCode < 300, deleted.body);
      assert.deepEqual((await summary('groupBy=agent&sid=sum-jobs')).groups, []);
    });

    test('a deleted record no longer counts', async () => {
      assert.equal(await svc.services.store.conversations.delete('sum-r2'), true);
      const s = await summary('groupBy=agent');
      assert.deepEqual(s.groups.map((g) => g.group), [A1]);
    });
  });
}
