// Concurrent first posts of one eventId: exactly one is "created", the rest replace it; one row remains.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';

for (const dialect of await dialects()) {
  describe(`post-call concurrency (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService(dialect);
    });
    after(() => svc.close());

    test('eight concurrent posts of a new eventId give one 201 and seven 200', async () => {
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => svc.request({ method: 'POST', url: '/cache/post-call', payload: { eventId: 'same', message: `copy ${i}` } })),
      );
      const codes = answers.map((a) => a.statusCode).sort();
      assert.deepEqual(codes, [200, 200, 200, 200, 200, 200, 200, 201]);
      const all = json(await svc.request({ method: 'GET', url: '/system/events?type=conversation&subject=same' })).events;
      // Each post is received, then processed (issue 18).
      assert.equal(all.length, 16);
      const events = all.filter((e: { subType: string }) => e.subType === 'received');
      assert.equal(events.length, 8);
      assert.equal(events.filter((e: { details: string }) => JSON.parse(e.details).replaced === false).length, 1);
      const rows = await svc.services.store.database.db.selectFrom('conversations').select('event_id').execute();
      assert.equal(rows.length, 1);
    });
  });
}

describe('post-call answers', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService('sqlite');
  });
  after(() => svc.close());

  test('Prefer: return=minimal answers only the eventId and status; Location names the record', async () => {
    const res = await svc.request({
      method: 'POST',
      url: '/system/cache/post-call',
      headers: { prefer: 'return=minimal' },
      payload: { eventId: 'min-1', campaign: { name: 'x' }, utterances: [{ text: 'hello', start: 0, end: 1 }] },
    });
    assert.equal(res.statusCode, 201);
    assert.deepEqual(json(res), { eventId: 'min-1', status: 'processed' });
    assert.equal(res.headers['preference-applied'], 'return=minimal');
    assert.equal(res.headers.location, '/cache/post-call/min-1');
    const stored = json(await svc.request({ method: 'GET', url: res.headers.location as string }));
    assert.equal(stored.utterances[0].text, 'hello');
  });
});
