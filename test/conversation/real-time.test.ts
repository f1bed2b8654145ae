// Must-show 4: real-call messages raise a realTime insight's alert on the message that completes its phrase
// (not before, not on the next), and the conversation's end (explicit, or idle) produces post-call analytics.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';

const PROJECT = {
  sid: 'live-ci',
  conversationIdleSeconds: 5,
  insights: [
    { id: 'recorded', name: 'Recording disclosure', expression: '"this call may be recorded"', channel: 0, realTime: true, alert: true, alertMessage: 'disclosure given', prompt: 'continue to verification' },
    { id: 'cancel', expression: 'caller:cancel*', realTime: true, alert: true },
    { id: 'post-only', expression: 'goodbye' },
  ],
};

for (const dialect of await dialects()) {
  describe(`real-time insights and the end of a live conversation (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService(dialect);
      const published = await svc.request({ method: 'POST', url: '/system/cache/v2/publish', payload: { data: JSON.stringify(PROJECT) } });
      assert.equal(published.statusCode, 200, published.body);
    });
    after(() => svc.close());
    const send = (key: string, speaker: string, text: string, extra: object = {}) =>
      svc.request({ method: 'POST', url: '/cache/real-call', payload: { engagementId: key, campaign: 'live-ci', speaker, text, isFinal: true, ...extra } });

    test('the alert is raised on the message that completes the phrase', async () => {
      const m1 = json(await send('rt-a', 'agent', 'hello thank you for calling'));
      assert.equal(m1.realTimeMessage.alert, undefined);
      const m2 = json(await send('rt-a', 'agent', 'this call may'));
      assert.equal(m2.realTimeMessage.alert, undefined, 'half the phrase raises nothing');
      const partial = json(await send('rt-a', 'agent', 'be recorded', { isFinal: false }));
      assert.equal(partial.realTimeMessage.alert, undefined, 'a partial message is not evaluated');
      const m3 = json(await send('rt-a', 'agent', 'be recorded for quality'));
      assert.equal(m3.realTimeMessage.alert, 'disclosure given');
      assert.equal(m3.realTimeMessage.prompt, 'continue to verification');
      assert.equal(m3.realTimeMessage.insights, 'recorded');
      const m4 = json(await send('rt-a', 'caller', 'ok i want to cancel my plan'));
      assert.equal(m4.realTimeMessage.insights, 'cancel', 'the next message raises only its own insight');
      assert.equal(m4.realTimeMessage.alert, 'cancel');
      // The caller saying the agent's phrase raises nothing.
      const m5 = json(await send('rt-a', 'caller', 'this call may be recorded you said'));
      assert.equal(m5.realTimeMessage.insights, undefined);
      // Stored with the message.
      const live = json(await svc.request({ method: 'GET', url: '/cache/live/rt-a' }));
      assert.equal(live.messages[3].message.alert, 'disclosure given');
    });

    test('an end message produces the post-call analysis', async () => {
      await send('rt-b', 'agent', 'this call may be recorded', { messageStartTime: 0, messageEndTime: 2 });
      await send('rt-b', 'caller', 'i am very unhappy with the service', { messageStartTime: 2.5, messageEndTime: 5 });
      const end = json(await send('rt-b', 'agent', 'goodbye', { messageStartTime: 6, messageEndTime: 7, type: 'end' }));
      assert.deepEqual(end.postCall, { eventId: 'live:rt-b', status: 'processed' });
      const record = json(await svc.request({ method: 'GET', url: `/cache/post-call/${encodeURIComponent('live:rt-b')}` }));
      assert.equal(record.status, 'processed');
      assert.equal(record.analytics.total_duration, 7);
      assert.equal(record.analytics.talk_time_agent, 3);
      assert.equal(record.analytics.talk_time_caller, 2.5);
      assert.equal(record.analytics.silence, 1.5);
      assert.equal(record.analytics.sentiment_caller, 'negative');
      assert.deepEqual(record.insightLines.map((l: { insightId: string }) => l.insightId).sort(), ['post-only', 'recorded']);
    });

    test('an idle conversation ends and is processed once', async () => {
      await send('rt-c', 'agent', 'this call may be recorded');
      assert.ok(!(await svc.services.conversations.endIdle(300, Date.now())).includes('rt-c'), 'not idle yet');
      // (Other tests' conversations end too: all are idle 10 minutes later.)
      const later = Date.now() + 600_000;
      assert.ok((await svc.services.conversations.endIdle(300, later)).includes('rt-c'), 'idle past the project\'s 5 s');
      assert.deepEqual(await svc.services.conversations.endIdle(300, later), [], 'processed once');
      const record = json(await svc.request({ method: 'GET', url: `/cache/post-call/${encodeURIComponent('live:rt-c')}` }));
      assert.equal(record.status, 'processed');
      assert.equal(record.segmentsCreated, 1);
    });

    test('POST /cache/live/{key}/end ends it explicitly; an unknown key is 404', async () => {
      await send('rt-d', 'agent', 'hello');
      const res = await svc.request({ method: 'POST', url: '/cache/live/rt-d/end' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(json(res).status, 'processed');
      assert.equal((await svc.request({ method: 'POST', url: '/cache/live/nothing-here/end' })).statusCode, 404);
    });
  });
}
