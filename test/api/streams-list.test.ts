// GET /asr/streams without callSid (issue 35): every stream with kept finals, the most recently active first,
// paged, each with the call it carried when it named one; with callSid, as before. On both stores.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';

for (const dialect of await dialects()) {
  describe(`the list of live streams (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService(dialect);
      // Three streams, their finals kept at known times: s-b last active, then s-a, then s-c.
      const rows = [
        ['s-a', 1, '2030-01-01T10:00:00.000Z', 'CA-list'],
        ['s-a', 2, '2030-01-01T10:05:00.000Z', 'CA-list'],
        ['s-b', 1, '2030-01-01T10:01:00.000Z', null],
        ['s-b', 2, '2030-01-01T10:02:00.000Z', null],
        ['s-b', 3, '2030-01-01T10:09:00.000Z', null],
        ['s-c', 1, '2030-01-01T09:00:00.000Z', 'CA-other'],
      ] as const;
      await svc.services.store.database.db
        .insertInto('stream_messages')
        .values(rows.map(([stream_id, sequence, created_at, call_sid]) => ({ stream_id, sequence, channel: 0, message: '{}', created_at, delete_after: null, call_sid })))
        .execute();
    });
    after(() => svc.close());

    test('every stream, the most recently active first, with its call and counts', async () => {
      const res = await svc.request({ method: 'GET', url: '/asr/streams' });
      assert.equal(res.statusCode, 200, res.body);
      const body = json(res);
      assert.equal(body.limit, 20);
      assert.equal(body.offset, 0);
      assert.deepEqual(body.streams, [
        { streamId: 's-b', messages: 3, firstAt: '2030-01-01T10:01:00.000Z', lastAt: '2030-01-01T10:09:00.000Z' },
        { streamId: 's-a', callSid: 'CA-list', messages: 2, firstAt: '2030-01-01T10:00:00.000Z', lastAt: '2030-01-01T10:05:00.000Z' },
        { streamId: 's-c', callSid: 'CA-other', messages: 1, firstAt: '2030-01-01T09:00:00.000Z', lastAt: '2030-01-01T09:00:00.000Z' },
      ]);
    });

    test('paged by limit and offset; by call as before; bad paging a clear 400', async () => {
      const page = json(await svc.request({ method: 'GET', url: '/asr/streams?limit=1&offset=1' }));
      assert.deepEqual(page.streams.map((s: { streamId: string }) => s.streamId), ['s-a']);
      const byCall = json(await svc.request({ method: 'GET', url: '/asr/streams?callSid=CA-list' }));
      assert.equal(byCall.callSid, 'CA-list');
      assert.deepEqual(byCall.streams.map((s: { streamId: string }) => s.streamId), ['s-a']);
      for (const q of ['limit=0', 'limit=101', 'offset=-1', 'callSid=']) {
        const res = await svc.request({ method: 'GET', url: `/asr/streams?${q}` });
        assert.equal(res.statusCode, 400, `${q}: ${res.body}`);
      }
    });
  });
}
