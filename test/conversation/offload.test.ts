// Post-call processing off the event loop: with every input sent to the redaction workers (inline limit 0, set
// before the service's modules load), the processing of a record runs on a worker thread and answers exactly
// what it answers inline — figures, insight lines, and the further masking an insight asks for (done through
// the redaction core inside the worker). Processing that would mask with no redaction allowed (a job's
// analysis) is refused there as it is inline.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { HAND_CALL } from './fixture.js';

process.env.SCRUBLINE_REDACT_INLINE_CHARS = '0';
const { enrichRecordOffLoop, closeRedactionPool } = await import('../../src/workers/index.js');
const { redactionPool } = await import('../../src/workers/pool.js');
const { perform } = await import('../../src/workers/tasks.js');
const { compileInsights } = await import('../../src/conversation/insights/definitions.js');
const { recordRoleOptions } = await import('../../src/conversation/normalize.js');
const { switchesOf } = await import('../../src/conversation/switches.js');

const record = { ...HAND_CALL, insights: [{ id: 'greet', expression: '"thanks for calling"', redactText: true }, { id: 'helped', expression: 'help' }] };
const options = () => ({
  insights: compileInsights(record.insights, '/insights'),
  roles: recordRoleOptions(record as never),
  switches: switchesOf({ enableProfanityFiltering: true }),
});

describe('post-call processing off the event loop', () => {
  after(() => closeRedactionPool());

  test('runs on a worker and answers what it answers inline, the insight mask included', async () => {
    const before = redactionPool().completed;
    const offLoop = await enrichRecordOffLoop(record as never, { ...options(), redaction: { hashKey: 'k' } });
    assert.equal(redactionPool().completed, before + 1, 'one task ran on the pool');
    const inline = await perform({ kind: 'enrich', record: record as never, ...options(), redaction: { hashKey: 'k' } });
    assert.deepEqual(offLoop, inline);
    assert.match(offLoop.utterances![0].text!, /\[INSIGHT\]/, 'the insight masked its phrase, in the worker');
    assert.ok(!JSON.stringify(offLoop).toLowerCase().includes('thanks for calling'));
    assert.deepEqual([...new Set(offLoop.insightLines!.map((l) => l.insightId))].sort(), ['greet', 'helped']);
    assert.ok(offLoop.analytics?.talk_time_agent, 'figures computed');
  });

  test('processing that would mask, with no redaction allowed, is refused on the worker as inline', async () => {
    await assert.rejects(enrichRecordOffLoop(record as never, options()), /may not redact/);
    await assert.rejects(Promise.resolve().then(() => perform({ kind: 'enrich', record: record as never, ...options() })), /may not redact/);
  });
});
