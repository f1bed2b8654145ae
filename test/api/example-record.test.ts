// The sample post-call record the README points at (examples/post-call-record.json) is accepted as the README
// says, and its name and social security number come back redacted.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { json, startTestService, type TestService } from '../helpers/harness.js';

const RECORD = fs.readFileSync(new URL('../../examples/post-call-record.json', import.meta.url), 'utf8');
const SEEDED = ['maria', 'lopez', '555-12-3456', 'five five five one two three four five six'];

describe('the README sample post-call record', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService('sqlite', { workers: false });
  });
  after(() => svc.close());

  test('POST /system/cache/post-call -d @examples/post-call-record.json: 201, redacted, read back by eventId', async () => {
    const res = await svc.request({ method: 'POST', url: '/system/cache/post-call', headers: { 'content-type': 'application/json' }, payload: RECORD });
    assert.equal(res.statusCode, 201, res.body);
    const answer = json(res);
    assert.equal(answer.eventId, 'example-call-0001');
    const back = await svc.request({ method: 'GET', url: '/cache/post-call/example-call-0001' });
    assert.equal(back.statusCode, 200);
    for (const body of [res.body, back.body]) {
      const lower = body.toLowerCase();
      for (const value of SEEDED) assert.ok(!lower.includes(value), `"${value}" is in the answer`);
    }
    assert.match(answer.utterances[1].text, /\[PERSON\]/);
  });
});
