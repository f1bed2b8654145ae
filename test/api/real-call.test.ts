// Real-call messages are validated and appended, in order, to their live conversation.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';

for (const dialect of await dialects()) {
  describe(`real-call (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService(dialect);
    });
    after(() => svc.close());

    const send = (payload: object) => svc.request({ method: 'POST', url: '/cache/real-call', payload });

    test('messages and records carrying one append to their conversation in order', async () => {
      const first = await send({ engagementId: 'eng-1', speaker: 'agent', text: 'thanks for calling', isFinal: true, messageStartTime: 0.4, messageEndTime: 1.9, sentiment: null });
      assert.equal(first.statusCode, 200, first.body);
      assert.deepEqual([json(first).conversationKey, json(first).sequence], ['eng-1', 1]);
      const second = await send({ realTimeMessage: { engagementId: 'eng-1', speaker: 'caller', text: 'hi', isFinal: false, gender: 'f' }, conversationId: 'x' });
      assert.equal(json(second).sequence, 2);
      assert.equal(json(second).realTimeMessage.text, 'hi');
      const other = await send({ ucid: 'ucid-7', text: 'elsewhere', vendorField: { kept: true } });
      assert.deepEqual([json(other).conversationKey, json(other).sequence], ['ucid-7', 1]);

      const live = json(await svc.request({ method: 'GET', url: '/cache/live/eng-1' }));
      assert.deepEqual(live.messages.map((m: { sequence: number; message: { text: string } }) => [m.sequence, m.message.text]), [
        [1, 'thanks for calling'],
        [2, 'hi'],
      ]);
      assert.deepEqual(json(await svc.request({ method: 'GET', url: '/cache/live/ucid-7' })).messages[0].message.vendorField, { kept: true });
      const list = json(await svc.request({ method: 'GET', url: '/cache/list?kind=live' }));
      assert.deepEqual(list.entries.map((e: { key: string }) => e.key).sort(), ['live:eng-1', 'live:ucid-7']);
      assert.equal((await svc.request({ method: 'GET', url: '/cache/live/none' })).statusCode, 404);
    });

    test('a wrong type inside the message names its path; nothing is appended', async () => {
      const res = await send({ engagementId: 'eng-1', messageStartTime: 'soon' });
      assert.equal(res.statusCode, 400);
      assert.equal(json(res).errors[0].pointer, '/messageStartTime');
      assert.equal(json(await svc.request({ method: 'GET', url: '/cache/live/eng-1' })).messages.length, 2);
    });

    test('the cache list pages through entries', async () => {
      for (let i = 0; i < 5; i++) await send({ ucid: `page-${i}`, text: 't' });
      const page1 = json(await svc.request({ method: 'GET', url: '/cache/list?kind=live&limit=3&offset=0' }));
      const page2 = json(await svc.request({ method: 'GET', url: '/cache/list?kind=live&limit=3&offset=3' }));
      assert.equal(page1.total, 7);
      assert.equal(page1.entries.length, 3);
      assert.equal(page2.entries.length, 3);
      const keys = [...page1.entries, ...page2.entries].map((e: { key: string }) => e.key);
      assert.equal(new Set(keys).size, 6, 'pages do not overlap');
      const summary = json(await svc.request({ method: 'GET', url: '/system/cache' }));
      assert.equal(summary.kinds.live.entries, 7);
    });
  });
}

describe('real-call redaction', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService('sqlite');
    const data = JSON.stringify({
      sid: 'live-desk',
      rules: [
        { name: 'USSocialSecurityNumber', active: true, mask_type: 'Placeholder', setting: '[SSN]', real_time: true },
        { name: 'Person', active: true, mask_type: 'Placeholder', setting: '[PERSON]', real_time: false },
      ],
    });
    assert.equal((await svc.request({ method: 'POST', url: '/system/cache/v2/publish', payload: { data } })).statusCode, 200);
  });
  after(() => svc.close());

  test('the real_time rules of the campaign\'s project mask the text before it is stored or answered', async () => {
    const res = await svc.request({
      method: 'POST',
      url: '/cache/real-call',
      payload: { engagementId: 'rt-1', campaign: 'live-desk', text: 'this is john smith my social is one two three four five six seven eight nine', isFinal: true },
    });
    assert.equal(res.statusCode, 200, res.body);
    const text = json(res).realTimeMessage.text;
    assert.match(text, /\[SSN\]/);
    assert.doesNotMatch(text, /one two three|seven eight nine/);
    assert.match(text, /john smith/, 'Person is not a real_time rule');
    const stored = JSON.stringify(await svc.services.store.database.db.selectFrom('live_messages').selectAll().execute());
    assert.ok(!stored.includes('one two three'), 'not stored in clear');
  });

  test('a record carrying the message names its project with redactionRequest.sid', async () => {
    const res = await svc.request({
      method: 'POST',
      url: '/cache/real-call',
      payload: { redactionRequest: { sid: 'live-desk' }, realTimeMessage: { ucid: 'rt-2', text: 'my ssn is 123-45-6789' } },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(json(res).realTimeMessage.text, 'my ssn is [SSN]');
  });
});
