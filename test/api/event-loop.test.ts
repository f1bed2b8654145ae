// No input stops the service: while a post-call record with a hostile regular expression rule (/(a|a)*$/ over
// a long "aaaa…!", which took the old engine exponential time) and a record with one 1 MiB word are being
// redacted, /health keeps answering; so it does while a long call that asks for no redaction is processed
// (analytics, insights, organizations: seconds of CPU). Through a real socket (app.listen + fetch): the heavy requests and the
// health checks really are concurrent. Nothing is timed: the test asserts ORDER — every /health started while
// the heavy records are in the worker pool is answered before either heavy record is — and that the heavy
// records are then answered (not a 5xx) and redacted.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { offLoopTasksInFlight } from '../../src/workers/index.js';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';

/** Every kind: detection is linear in a word's length for all of them (a 1 MiB word once took an hour for Person). */
const KINDS = ['all'];
const CARD = '4111 1111 1111 1111';
/** Ordinary conversation that gives the recognizers work: a thousand utterances with values to find. */
const utterances = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ speaker: i % 2, text: `caller ${i} says my card is ${CARD} and my social is 123-45-6789, call me on 555 010 ${1000 + (i % 9000)}` }));
const HOSTILE_TEXT = `${'a'.repeat(200_000)}!`;
const WORD = 'w'.repeat(1 << 20);

const hostile = {
  eventId: 'hostile-regex',
  redactionRequest: { types: KINDS },
  redactionTypes: [{ name: 'shape', rules: [{ value: '/(a|a)*$/', type: 'Run' }] }],
  utterances: [{ speaker: 0, text: HOSTILE_TEXT }, ...utterances(1000)],
};
const oneWord = {
  eventId: 'one-mib-word',
  redactionRequest: { types: KINDS },
  utterances: [{ speaker: 0, text: `my card is ${CARD} then ${WORD} end` }, ...utterances(1000)],
};

/**
 * A long call that asks for no redaction (no types, no project) but for every analysis: organizations (a parse of
 * each capitalized line), profanity, key phrases, sentiment and insights over 1,000 lines. Its processing is the
 * heavy part of the request.
 */
const processed = {
  eventId: 'heavy-processing',
  campaign: { enableEntityExtraction: true, enableProfanityFiltering: true },
  insights: [
    { id: 'greet', expression: '"thanks for calling"', channel: 0 },
    { id: 'orders', expression: 'order NEAR/3 #' },
  ],
  utterances: Array.from({ length: 1000 }, (_, i) => ({
    speaker: i % 2,
    start: i * 4,
    end: i * 4 + 3.5,
    text: i % 2 ? `I called Northwind Traders and then Acme Insurance Group about order ${i}, it was great, thank you` : `Thanks for calling Contoso Bank, how can I help with ticket ${i} today?`,
  })),
};

/** POST a record to /system/cache/post-call over a socket; `answered` counts the answers. */
function poster(base: string, counter: { answered: number }) {
  // node:http, not fetch: fetch gives up on an answer after 5 minutes, which a heavy record can take on a
  // machine busy with other work; these tests are about order, never about time.
  return (record: object) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const body = JSON.stringify(record);
      const req = http.request(`${base}/system/cache/post-call`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', prefer: 'return=minimal', 'content-length': Buffer.byteLength(body) },
      });
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

/** Health checks, one after another and two at once, each noting how many heavy records were answered before it. */
async function healthChecks(base: string, counter: { answered: number }) {
  const answered: { status: number; body: unknown; heavyAnsweredBefore: number }[] = [];
  const health = async () => {
    const res = await fetch(`${base}/health`);
    answered.push({ status: res.status, body: await res.json(), heavyAnsweredBefore: counter.answered });
  };
  for (let round = 0; round < 4; round++) await Promise.all([health(), health()]);
  return answered;
}

for (const dialect of await dialects()) {
  describe(`the event loop stays free while records are redacted (${dialect})`, () => {
    let svc: TestService;
    let base: string;
    before(async () => {
      svc = await startTestService(dialect, { workers: false });
      base = await svc.app.listen({ port: 0, host: '127.0.0.1' });
    });
    after(async () => svc?.close());

    test('/health answers while a hostile-regex record and a 1 MiB-word record are redacted; both are then stored redacted', async () => {
      const counter = { answered: 0 };
      const heavy = Promise.all([poster(base, counter)(hostile), poster(base, counter)(oneWord)]);

      // Both records are received, checked and handed to the redaction workers.
      while (offLoopTasksInFlight() < 2 && counter.answered === 0) await sleep(5);
      assert.equal(counter.answered, 0, 'the heavy records were answered before their redaction ran off the event loop');

      // Health checks started now, one after another and a few at once, are all answered before either record.
      const answered = await healthChecks(base, counter);
      assert.equal(answered.length, 8);
      for (const a of answered) {
        assert.equal(a.status, 200);
        assert.deepEqual(a.body, { status: 'ok' });
        assert.equal(a.heavyAnsweredBefore, 0, 'a /health request waited for a record to be redacted');
      }

      const [hostileAnswer, wordAnswer] = await heavy;
      assert.equal(hostileAnswer.status, 201, hostileAnswer.body);
      assert.equal(wordAnswer.status, 201, wordAnswer.body);

      // Redacted as asked: the run the hostile rule matches, and every card number in both records.
      const storedHostile = json((await svc.request({ method: 'GET', url: '/cache/post-call/hostile-regex' })));
      assert.equal(storedHostile.utterances[0].text, '[RUN]!');
      const storedWord = json((await svc.request({ method: 'GET', url: '/cache/post-call/one-mib-word' })));
      assert.ok(storedWord.utterances[0].text.includes(WORD), 'the long word is kept (it is no value)');
      for (const stored of [storedHostile, storedWord]) {
        assert.equal(stored.utterances.length, 1001);
        assert.ok(!JSON.stringify(stored.utterances).includes('4111'), 'a card number survived');
      }
    });

    test('/health answers while a long call asking for every analysis and no redaction is processed; it is then stored processed', async () => {
      const counter = { answered: 0 };
      const pending = poster(base, counter)(processed);

      // Nothing to redact: the processing is what goes to a worker.
      while (offLoopTasksInFlight() < 1 && counter.answered === 0) await sleep(5);
      assert.equal(counter.answered, 0, 'the record was answered before its processing ran off the event loop');

      const answered = await healthChecks(base, counter);
      assert.equal(answered.length, 8);
      for (const a of answered) {
        assert.equal(a.status, 200);
        assert.deepEqual(a.body, { status: 'ok' });
        assert.equal(a.heavyAnsweredBefore, 0, 'a /health request waited for a record to be processed');
      }

      const answer = await pending;
      assert.equal(answer.status, 201, answer.body);
      assert.equal(JSON.parse(answer.body).status, 'processed');
      const stored = json(await svc.request({ method: 'GET', url: '/cache/post-call/heavy-processing' }));
      assert.equal(stored.status, 'processed');
      assert.equal(stored.segmentsCreated, 1000);
      assert.ok(stored.analytics.talk_time_agent > 0, 'figures computed');
      assert.ok(stored.entities.some((e: { engine?: string; text?: string }) => e.engine === 'compromise' && /Northwind|Acme|Contoso/.test(e.text ?? '')), 'organizations found');
      assert.ok(stored.insightLines.some((l: { insightId?: string }) => l.insightId === 'orders'), 'insights run');
      assert.equal(stored.redaction, undefined, 'nothing was asked to be redacted');
    });
  });
}
