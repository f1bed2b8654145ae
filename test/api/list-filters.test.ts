// Job lists (issue 22): an unknown query parameter is a 400 naming it (never ignored: `?tracking_id=` once
// answered every job), filters by tracking_id, project and time, and cursor paging beside limit/offset.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';

for (const dialect of await dialects()) {
  describe(`job list filters (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService(dialect, { workers: false });
      const project = { sid: 'acme-list', name: 'Acme', active: true, agent_location: 'left', inbound: true, scrubaudio: false, scrubtext: false, rules: [] };
      const published = await svc.request({ method: 'POST', url: '/system/cache/v2/publish', payload: { data: JSON.stringify(project) } });
      assert.equal(published.statusCode, 200, published.body);
    });
    after(() => svc.close());

    const submit = async (payload: object) => {
      const res = await svc.request({ method: 'POST', url: '/asr/transcribe', payload: { text: 'hello there', ...payload } });
      assert.equal(res.statusCode, 202, res.body);
      return json(res).jobId as string;
    };
    const list = async (query: string) => {
      const res = await svc.request({ method: 'GET', url: `/asr/jobs?${query}` });
      assert.equal(res.statusCode, 200, res.body);
      return json(res) as { total: number; nextCursor: string | null; jobs: { jobId: string }[] };
    };

    test('unknown query parameters are refused, on lists and elsewhere', async () => {
      await submit({ tracking_id: 'case-1' });
      for (const url of ['/asr/jobs?trackingId=case-981', '/asr/jobs?limt=5', '/system/events?job=x', '/asr/params?verbose=1']) {
        const res = await svc.request({ method: 'GET', url });
        assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
        const name = url.split('?')[1].split('=')[0];
        assert.ok(json(res).errors.some((e: { pointer: string }) => e.pointer === `/query/${name}`), res.body);
      }
    });

    test('tracking_id, sid and a time range filter the list', async () => {
      const a = await submit({ tracking_id: 'case-981' });
      const b = await submit({ tracking_id: 'case-982', sid: 'acme-list' });
      const c = await submit({ tracking_id: 'case-981', sid: 'acme-list' });
      let page = await list('tracking_id=case-981');
      assert.deepEqual(new Set(page.jobs.map((j) => j.jobId)), new Set([a, c]));
      assert.equal(page.total, 2);
      page = await list('sid=acme-list');
      assert.deepEqual(new Set(page.jobs.map((j) => j.jobId)), new Set([b, c]));
      page = await list('sid=acme-list&tracking_id=case-982');
      assert.deepEqual(page.jobs.map((j) => j.jobId), [b]);
      assert.equal((await list('tracking_id=no-such-case')).total, 0);
      // Times: every job above was created before now + 1 h and after 2000; none before 2000.
      const later = new Date(Date.now() + 3_600_000).toISOString();
      assert.equal((await list(`tracking_id=case-981&from=2000-01-01&to=${encodeURIComponent(later)}`)).total, 2);
      assert.equal((await list('tracking_id=case-981&to=2000-01-01')).total, 0);
      assert.equal((await list(`tracking_id=case-981&from=${encodeURIComponent(later)}`)).total, 0);
      assert.equal((await svc.request({ method: 'GET', url: '/asr/jobs?from=yesterday' })).statusCode, 400);
    });

    test('cursor paging walks every job once, newest first; limit/offset still work', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push(await submit({ tracking_id: 'paged' }));
      const seen: string[] = [];
      let page = await list('tracking_id=paged&limit=2');
      seen.push(...page.jobs.map((j) => j.jobId));
      while (page.nextCursor) {
        page = await list(`tracking_id=paged&limit=2&cursor=${page.nextCursor}`);
        seen.push(...page.jobs.map((j) => j.jobId));
      }
      assert.equal(seen.length, 5);
      assert.deepEqual(new Set(seen), new Set(ids));
      const byOffset = [...(await list('tracking_id=paged&limit=3')).jobs, ...(await list('tracking_id=paged&limit=3&offset=3')).jobs].map((j) => j.jobId);
      assert.deepEqual(byOffset, seen);
      assert.equal((await svc.request({ method: 'GET', url: '/asr/jobs?cursor=bm9wZQ' })).statusCode, 400);
      assert.equal((await svc.request({ method: 'GET', url: `/asr/jobs?offset=2&cursor=${(await list('limit=1')).nextCursor}` })).statusCode, 400);
    });

    test('the filters are in the OpenAPI document', async () => {
      const doc = json(await svc.request({ method: 'GET', url: '/openapi.json' }));
      const names = doc.paths['/asr/jobs'].get.parameters.map((p: { name: string }) => p.name);
      for (const name of ['status', 'tracking_id', 'sid', 'from', 'to', 'cursor', 'limit', 'offset']) assert.ok(names.includes(name), name);
    });
  });
}
