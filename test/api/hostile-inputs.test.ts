// Resource exhaustion (issue 36, items 2 and 3): what one input may make the service do is bounded.
// - Insights: a record or project with more insights than the limit, or an expression of more words, is refused
//   (400 naming the limit); within the limits, a small record's insights run off the event loop: /health
//   answers while it is processed (ORDER, never time: each health check is answered before the record is).
// - Rules: a record with more distinct value rules or regular-expression rules than the limits is refused
//   (400 naming the limit); copies of one rule are one rule (a real-call message with 500 of them is redacted).
// - Tasks: one that runs past its time limit stops its worker and fails the record (422 naming the limit),
//   nothing stored; the next record runs on a new worker. Closing the pool (what SIGTERM does) stops a task in
//   flight at once (503 shutting_down, nothing stored) instead of waiting for it.
// One redaction worker (SCRUBLINE_REDACTORS=1, set before the pool starts), so a record queued behind another is
// deterministically still in flight while the health checks run.
process.env.SCRUBLINE_REDACTORS = '1';
process.env.SCRUBLINE_REDACT_CLOSE_GRACE_MS = '1';

import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { insightRecord, nearWildcardInsights, plainUtterances, regexRules, ruleRecord } from '../../bench/fixtures/hostileInputs.js';
import { closeRedactionPool, offLoopTasksInFlight } from '../../src/workers/index.js';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';

/** A long call asking for every analysis: seconds of legitimate work on the one worker. */
const busy = (eventId: string) => ({
  eventId,
  campaign: { enableEntityExtraction: true, enableProfanityFiltering: true },
  redactionRequest: { types: ['all'] },
  utterances: Array.from({ length: 1000 }, (_, i) => ({
    speaker: i % 2,
    text: i % 2 ? `I called Northwind Traders and then Acme Insurance Group about order ${i}, card 4111 1111 1111 1111` : `Thanks for calling Contoso Bank, how can I help with ticket ${i} today?`,
  })),
});

/** POST a record over a socket; `answered` counts the answers. */
function poster(base: string, counter: { answered: number }) {
  return (path: string, record: object) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const body = JSON.stringify(record);
      const req = http.request(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          counter.answered++;
          resolve({ status: res.statusCode ?? 0, body: text });
        });
      });
      req.on('error', reject);
      req.end(body);
    });
}

const says = (body: string, text: string) => assert.ok(body.includes(text), `the refusal names ${text}: ${body}`);

for (const dialect of await dialects()) {
  describe(`hostile inputs are bounded (${dialect})`, () => {
    let svc: TestService;
    let base: string;
    const stored = async (eventId: string) => (await svc.request({ method: 'GET', url: `/cache/post-call/${eventId}` })).statusCode;
    const post = (record: object) => svc.request({ method: 'POST', url: '/system/cache/post-call', payload: record });
    before(async () => {
      svc = await startTestService(dialect, { workers: false });
      base = await svc.app.listen({ port: 0, host: '127.0.0.1' });
    });
    after(async () => svc?.close());

    test('a record with more insights than the limit is refused naming it; nothing is stored', async () => {
      const res = await post(insightRecord('too-many-insights', 50, 101));
      assert.equal(res.statusCode, 400, res.body.slice(0, 300));
      says(res.body, 'SCRUBLINE_MAX_RECORD_INSIGHTS');
      says(res.body, '101 active insights');
      assert.equal(await stored('too-many-insights'), 404);
      // Inactive insights do not count.
      const inactive = { ...insightRecord('inactive-insights', 50, 0), insights: nearWildcardInsights(150).map((i) => ({ ...i, active: false })) };
      assert.equal((await post(inactive)).statusCode, 201);
    });

    test('an expression of more words than the limit is refused naming it', async () => {
      const words = Array.from({ length: 65 }, (_, i) => `w${i}`).join(' OR ');
      const res = await post({ eventId: 'long-expression', insights: [{ id: 'long', expression: words }], utterances: plainUtterances(20) });
      assert.equal(res.statusCode, 400, res.body.slice(0, 300));
      says(res.body, 'SCRUBLINE_MAX_EXPRESSION_TERMS');
      assert.equal(await stored('long-expression'), 404);
    });

    test('a project with more insights, or more distinct rules, than the limits is refused at publish naming them', async () => {
      const publish = (config: object) => svc.request({ method: 'POST', url: '/system/cache/v2/publish', payload: { data: JSON.stringify(config) } });
      const many = await publish({ sid: 'hostile', insights: nearWildcardInsights(201) });
      assert.equal(many.statusCode, 400, many.body.slice(0, 300));
      says(many.body, 'SCRUBLINE_MAX_PROJECT_INSIGHTS');
      // 500 copies of one rule are one rule.
      const copies = await publish({ sid: 'hostile', scrubtext: true, insights: nearWildcardInsights(200), rules: Array.from({ length: 500 }, () => ({ name: 'Person' })) });
      assert.equal(copies.statusCode, 200, copies.body.slice(0, 300));
      const distinct = await publish({ sid: 'hostile', rules: Array.from({ length: 201 }, (_, i) => ({ name: 'Person', setting: `[P${i}]` })) });
      assert.equal(distinct.statusCode, 400, distinct.body.slice(0, 300));
      says(distinct.body, 'SCRUBLINE_MAX_PROJECT_RULES');
    });

    test('a record with more distinct rules or regular-expression rules than the limits is refused naming them; copies are one rule', async () => {
      const regex = await post(ruleRecord('many-regex', 200, regexRules(51)));
      assert.equal(regex.statusCode, 400, regex.body.slice(0, 300));
      says(regex.body, 'SCRUBLINE_MAX_RECORD_REGEX_RULES');
      assert.equal(await stored('many-regex'), 404);
      const literal = Array.from({ length: 201 }, (_, i) => ({ value: `secret${i}`, type: 'Code' }));
      const many = await post(ruleRecord('many-rules', 200, literal));
      assert.equal(many.statusCode, 400, many.body.slice(0, 300));
      says(many.body, 'SCRUBLINE_MAX_RECORD_RULES');
      assert.equal(await stored('many-rules'), 404);

      // Phrases for categories and insights (typeName phrase) are no redaction rules: they do not count.
      const phrases = { ...ruleRecord('phrases', 200, []), contentGroups: [{ name: 'topics', contentItems: Array.from({ length: 300 }, (_, i) => ({ value: `topic ${i}`, typeName: 'phrase' })) }] };
      assert.equal((await post(phrases)).statusCode, 201);

      // 500 copies of one rule (and of one content item) are one rule each: redacted, not refused.
      const copies = { ...ruleRecord('copies', 200, regexRules(1, 500)), contentGroups: [{ name: 'g', contentItems: Array.from({ length: 500 }, () => ({ value: 'blue falcon', typeName: 'Code' })) }] };
      ((copies as unknown as { utterances: { text: string }[] }).utterances)[0].text = 'my ref 0123 and the word blue falcon';
      const res = await post(copies);
      assert.equal(res.statusCode, 201, res.body.slice(0, 300));
      const text = json(await svc.request({ method: 'GET', url: '/cache/post-call/copies' })).utterances[0].text as string;
      assert.ok(!text.includes('0123') && !text.includes('falcon'), text);
    });

    test('a real-call message carrying 500 copies of one rule is redacted; one with too many distinct rules is refused', async () => {
      const send = (payload: object) => svc.request({ method: 'POST', url: '/cache/real-call', payload });
      const copies = await send({ realTimeMessage: { engagementId: 'hostile-live', speaker: 'caller', text: 'my ref 0123 please', isFinal: true }, redactionTypes: [{ name: 'r', rules: regexRules(1, 500) }] });
      assert.equal(copies.statusCode, 200, copies.body.slice(0, 300));
      assert.ok(!json(copies).realTimeMessage.text.includes('0123'), copies.body);
      const many = await send({ realTimeMessage: { engagementId: 'hostile-live', speaker: 'caller', text: 'hello', isFinal: true }, redactionTypes: [{ name: 'r', rules: regexRules(51) }] });
      assert.equal(many.statusCode, 400, many.body.slice(0, 300));
      says(many.body, 'SCRUBLINE_MAX_RECORD_REGEX_RULES');
    });

    test('/health answers while a small record with NEAR wildcard insights is processed (off the event loop)', async () => {
      const counter = { answered: 0 };
      const hostile = { answered: 0 };
      // The one worker is busy with a long legitimate call; the hostile record (under 16K characters: it once ran
      // inline and held the loop for as long as its insights took) waits behind it, off the loop.
      const first = poster(base, counter)('/system/cache/post-call', busy('busy-call'));
      while (offLoopTasksInFlight() < 1 && counter.answered === 0) await sleep(5);
      const pending = poster(base, hostile)('/system/cache/post-call', insightRecord('hostile-insights', 800, 50));
      while (offLoopTasksInFlight() < 2 && hostile.answered === 0) await sleep(5);
      assert.equal(hostile.answered, 0, 'the hostile record was answered before it went off the event loop');

      for (let round = 0; round < 3; round++) {
        const checks = await Promise.all([0, 1].map(async () => {
          const res = await fetch(`${base}/health`);
          return { status: res.status, hostileAnsweredBefore: hostile.answered };
        }));
        for (const c of checks) {
          assert.equal(c.status, 200);
          assert.equal(c.hostileAnsweredBefore, 0, 'a /health request waited for the insights');
        }
      }
      const [busyAnswer, hostileAnswer] = await Promise.all([first, pending]);
      assert.equal(busyAnswer.status, 201, busyAnswer.body.slice(0, 300));
      assert.equal(hostileAnswer.status, 201, hostileAnswer.body.slice(0, 300));
      const record = json(await svc.request({ method: 'GET', url: '/cache/post-call/hostile-insights' }));
      assert.equal(record.status, 'processed');
      assert.ok(record.insightLines.some((l: { insightId?: string }) => l.insightId === 'near-0'), 'the insights matched');
    });

    test('/health answers while a real-call message raises many real-time insights over its live call (off the event loop)', async () => {
      const send = (payload: object) => svc.request({ method: 'POST', url: '/cache/real-call', payload });
      for (const [i, line] of plainUtterances(800).entries()) {
        const sent = await send({ realTimeMessage: { engagementId: 'live-insights', speaker: i % 2 ? 'caller' : 'agent', text: line.text, isFinal: true } });
        assert.equal(sent.statusCode, 200, sent.body.slice(0, 300));
      }
      const counter = { answered: 0 };
      const hostile = { answered: 0 };
      const first = poster(base, counter)('/system/cache/post-call', busy('busy-live'));
      while (offLoopTasksInFlight() < 1 && counter.answered === 0) await sleep(5);
      const insights = nearWildcardInsights(50).map((i) => ({ ...i, realTime: true, alert: true }));
      const pending = poster(base, hostile)('/cache/real-call', { realTimeMessage: { engagementId: 'live-insights', speaker: 'caller', text: 'my payment account please', isFinal: true }, insights });
      while (offLoopTasksInFlight() < 2 && hostile.answered === 0) await sleep(5);
      assert.equal(hostile.answered, 0, 'the message was answered before its insights went off the event loop');
      for (let round = 0; round < 3; round++) {
        const res = await fetch(`${base}/health`);
        assert.equal(res.status, 200);
        assert.equal(hostile.answered, 0, 'a /health request waited for the real-time insights');
      }
      const [busyAnswer, hostileAnswer] = await Promise.all([first, pending]);
      assert.equal(busyAnswer.status, 201, busyAnswer.body.slice(0, 300));
      assert.equal(hostileAnswer.status, 200, hostileAnswer.body.slice(0, 300));
      assert.match(JSON.parse(hostileAnswer.body).realTimeMessage.insights ?? '', /near-0/, 'the insights were raised');
    });

    test('a task past its time limit stops its worker and fails the record naming the limit; nothing is stored; the next runs on a new worker', async () => {
      process.env.SCRUBLINE_REDACT_TASK_MS = '1';
      let res;
      try {
        res = await post(busy('over-time'));
      } finally {
        delete process.env.SCRUBLINE_REDACT_TASK_MS;
      }
      assert.equal(res.statusCode, 422, res.body.slice(0, 300));
      says(res.body, 'SCRUBLINE_REDACT_TASK_MS');
      assert.equal(await stored('over-time'), 404);
      // The next task has all the time it needs (a worker niced below a busy machine's other work can take longer
      // than the default limit over this record): what is under test is that it runs, on a new worker.
      process.env.SCRUBLINE_REDACT_TASK_MS = '3600000';
      let again;
      try {
        again = await post(busy('in-time'));
      } finally {
        delete process.env.SCRUBLINE_REDACT_TASK_MS;
      }
      assert.equal(again.statusCode, 201, again.body.slice(0, 300));
      assert.ok(!JSON.stringify(json(again).utterances).includes('4111'), 'redacted');
    });

    test('closing the pool (SIGTERM) stops a task in flight: 503 shutting_down, nothing stored, the close does not wait for it', async () => {
      const counter = { answered: 0 };
      const pending = poster(base, counter)('/system/cache/post-call', busy('cut-short'));
      while (offLoopTasksInFlight() < 1 && counter.answered === 0) await sleep(5);
      assert.equal(counter.answered, 0);
      // The close stops the worker after its grace (1 ms here): the record (seconds of work) is cut short, not
      // waited for; a later task starts a new pool.
      const [answer] = await Promise.all([pending, closeRedactionPool()]);
      assert.equal(answer.status, 503, answer.body.slice(0, 300));
      says(answer.body, 'stopping');
      assert.equal(await stored('cut-short'), 404);
    });
  });
}

for (const dialect of await dialects()) {
  describe(`stopping the redaction workers under a job (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService(dialect, { env: { SCRUBLINE_JOB_LEASE_MS: '3000' } });
    });
    after(async () => svc?.close());

    test('a job whose redaction runs past the time limit fails at once with the reason, its text not kept', async () => {
      const text = Array.from({ length: 1000 }, (_, i) => `caller ${i} says my ssn is 123-45-6789 and my card is 4111 1111 1111 1111.`).join('\n');
      process.env.SCRUBLINE_REDACT_TASK_MS = '1';
      let done;
      try {
        const queued = await svc.request({ method: 'POST', url: '/asr/transcribe', payload: { text, types: ['all'] } });
        assert.equal(queued.statusCode, 202, queued.body.slice(0, 300));
        done = json(await svc.request({ method: 'GET', url: `/asr/jobs/${json(queued).jobId}?wait=300` }));
      } finally {
        delete process.env.SCRUBLINE_REDACT_TASK_MS;
      }
      assert.equal(done.status, 'failed', JSON.stringify(done).slice(0, 300));
      assert.equal(done.attempts, 1, 'not tried again: the same input would cost the same');
      assert.match(JSON.stringify(done), /SCRUBLINE_REDACT_TASK_MS/);
      assert.ok(!JSON.stringify(done).includes('123-45-6789'), 'nothing unredacted kept');
    });

    test('a job whose redaction is cut short by the close is left to be tried again, not failed: its next attempt completes it redacted', async () => {
      const text = Array.from({ length: 1000 }, (_, i) => `caller ${i} says my ssn is 123-45-6789 and my card is 4111 1111 1111 1111.`).join('\n');
      const queued = await svc.request({ method: 'POST', url: '/asr/transcribe', payload: { text, types: ['all'] } });
      assert.equal(queued.statusCode, 202, queued.body.slice(0, 300));
      const jobId = json(queued).jobId as string;
      while (offLoopTasksInFlight() < 1) await sleep(5);
      // What SIGTERM does first: the workers are stopped under the job's redaction.
      await closeRedactionPool();
      const done = json(await svc.request({ method: 'GET', url: `/asr/jobs/${jobId}?wait=300` }));
      assert.equal(done.status, 'completed', JSON.stringify(done).slice(0, 300));
      // Claimed again once its lease ran out (a busy machine may need more than one more claim: never fewer).
      assert.ok(done.attempts >= 2, 'the cut attempt was left to its lease and claimed again');
      const transcript = await svc.request({ method: 'GET', url: `/asr/jobs/${jobId}/transcript?format=text` });
      assert.ok(!transcript.body.includes('123-45-6789') && !transcript.body.includes('4111'), transcript.body.slice(0, 300));
      // The cut attempt is not the job's failure: no 'failed' nor 'retrying' (with a worker's error) on record.
      const events = JSON.stringify(json(await svc.request({ method: 'GET', url: `/asr/jobs/${jobId}/events` })));
      assert.ok(!/"(failed|retrying)"/.test(events), events.slice(0, 600));
    });
  });
}
