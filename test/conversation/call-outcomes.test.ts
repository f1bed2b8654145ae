// Issue 35: issues, outcomes and action items found in a call's redacted text, each with its turn, time, party
// and sentence; negations reverse nothing into a detection; a project's phrases extend (or replace) the lexicon
// and a bad one is refused naming it; the extractive summary picks and ranks the sentences; nothing detected or
// summarized holds a value redaction masked.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { detectOutcomes } from '../../src/conversation/callOutcomes/detect.js';
import { compileLexicon } from '../../src/conversation/callOutcomes/lexicon.js';
import { callSummary } from '../../src/conversation/callOutcomes/summary.js';
import { conversationOfRecord, recordRoleOptions } from '../../src/conversation/normalize.js';
import { ServiceError } from '../../src/errors.js';
import type { EventRecord } from '../../src/schema/resources/eventRecord.js';
import { json, startTestService, type TestService } from '../helpers/harness.js';

type Line = [channel: number, start: number, text: string];
/** A stereo call, agent left; each word 0.5 s. */
function call(lines: Line[]) {
  const record = {
    campaign: { agentLocation: 'left' },
    vendorATranscript: {
      nchannels: 2,
      utterances: lines.map(([channel, start, text]) => {
        const words = text.split(' ');
        return {
          metadata: { channel },
          start,
          end: start + words.length * 0.5,
          events: words.map((word, i) => ({ word, start: start + i * 0.5, end: start + i * 0.5 + 0.5 })),
        };
      }),
    },
  } as unknown as EventRecord;
  return conversationOfRecord(record, recordRoleOptions(record))!;
}

const CALL: Line[] = [
  [0, 0, 'thanks for calling how can i help'],
  [1, 4, 'hi. my card was charged twice for the same order.'],
  [0, 10, 'let me look. okay i can see both charges.'],
  [0, 16, "i've refunded the second charge. you will receive an email within three business days."],
  [1, 30, 'great thank you'],
];

describe('issue, outcome and action-item detection', () => {
  const lexicon = compileLexicon(undefined);

  test('each detection has its kind, turn, party, the time of its phrase and its sentence', () => {
    const found = detectOutcomes(call(CALL), lexicon);
    assert.deepEqual(
      found.map((d) => [d.kind, d.line, d.speaker, d.role, d.start, d.end, d.phrase, d.text]),
      [
        // "my" is word 1 of line 1 (4.5 s): "charged twice" is words 4-5 → 6 s to 7 s.
        ['issue', 1, 1, 'caller', 6, 7, 'charged twice', 'my card was charged twice for the same order.'],
        ['outcome', 3, 0, 'agent', 16, 17, 'ive refunded', "i've refunded the second charge."],
        // Sentence 2 of line 3 starts at word 5 (18.5 s); "you will receive" is its first three words.
        ['action', 3, 0, 'agent', 18.5, 20, 'you will receive', 'you will receive an email within three business days.'],
      ],
    );
  });

  test('a negated outcome or action item is not one; a plain line is nothing', () => {
    const found = detectOutcomes(
      call([
        [1, 0, 'it has not been resolved and nobody will call back'],
        [0, 10, 'i understand how frustrating that is'],
      ]),
      lexicon,
    );
    assert.deepEqual(found.map((d) => d.kind), []);
    // The same words without the negations are an outcome and an action item.
    assert.deepEqual(detectOutcomes(call([[0, 0, 'it has been resolved and we will call back']]), lexicon).map((d) => d.kind), ['outcome', 'action']);
  });

  test("a project's phrases extend the lexicon; with builtIn false they replace a kind's built-in phrases", () => {
    const conversation = call([[1, 0, 'the router lights are blinking orange and my card was charged twice']]);
    assert.deepEqual(detectOutcomes(conversation, compileLexicon({ issues: ['lights are * orange'] })).map((d) => d.phrase), ['lights are * orange']);
    assert.deepEqual(detectOutcomes(conversation, compileLexicon({ issues: ['blinking orange'], builtIn: false })).map((d) => d.phrase), ['blinking orange']);
    assert.deepEqual(detectOutcomes(conversation, compileLexicon({ issues: ['zebra crossing'], builtIn: false })), []);
    // A prefix word.
    assert.deepEqual(detectOutcomes(call([[0, 0, 'the replacement gets dispatched tomorrow']]), compileLexicon({ actionItems: ['gets dispatch*'] })).map((d) => d.kind), ['action']);
  });

  test('a phrase that cannot match is refused, naming where it stands', () => {
    for (const [bad, pointer] of [
      [{ issues: ['ok', '*'] }, '/data/callOutcomes/issues/1'],
      [{ outcomes: ['* done'] }, '/data/callOutcomes/outcomes/0'],
      [{ actionItems: ['send $$$'] }, '/data/callOutcomes/actionItems/0'],
      [{ issues: Array.from({ length: 201 }, (_, i) => `word${i}`) }, '/data/callOutcomes/issues'],
      [{ issues: ['a b c d e f g h i j k l m'] }, '/data/callOutcomes/issues/0'],
    ] as const) {
      assert.throws(
        () => compileLexicon(bad as never, '/data/callOutcomes'),
        (e: unknown) => e instanceof ServiceError && e.issues.some((i) => i.pointer === pointer),
        JSON.stringify(bad),
      );
    }
  });

  test('the summary: the issue, the outcome and the action items, in call order, ranked', () => {
    const summary = callSummary(detectOutcomes(call(CALL), lexicon));
    assert.equal(summary.text, "my card was charged twice for the same order. i've refunded the second charge. you will receive an email within three business days.");
    // Issue by the caller 3+1, outcome by the agent 3+1, action item by the agent 2+1: the issue ranks first on the tie.
    assert.deepEqual(summary.sentences.map((s) => [s.kind, s.rank, s.score, s.line]), [['issue', 1, 4, 1], ['outcome', 2, 4, 3], ['action', 3, 3, 3]]);
    assert.deepEqual(callSummary([]), { text: '', sentences: [] });
  });

  test('the latest outcome wins a tie; at most two action items, the best and earliest', () => {
    const summary = callSummary(
      detectOutcomes(
        call([
          [0, 0, "i've reset your password."],
          [0, 5, "i'll send a link."],
          [1, 8, "i'll call back later."],
          [0, 11, "i'll email you."],
          [0, 14, 'your account has been unlocked.'],
        ]),
        lexicon,
      ),
    );
    assert.deepEqual(summary.sentences.map((s) => [s.kind, s.line]), [['action', 1], ['action', 3], ['outcome', 4]]);
  });
});

describe('detections and summary in a post-call record never hold a redacted value', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService('sqlite');
  });
  after(() => svc.close());

  test('the name and the card are masked in the issue, the outcome and the summary', async () => {
    const body = {
      eventId: 'outcomes-redacted',
      campaign: { enableTextRedaction: true },
      utterances: [
        { text: 'my name is john smith and my card 4111 1111 1111 1111 was charged twice', speaker: 1, start: 0, end: 5 },
        { text: 'thank you john smith, i have refunded the charge. you will receive an email today.', speaker: 0, start: 6, end: 10 },
      ],
    };
    const posted = await svc.request({ method: 'POST', url: '/cache/post-call', payload: body });
    assert.equal(posted.statusCode, 201, posted.body);
    const analytics = json(posted).analytics as Record<string, unknown>;
    const issues = analytics.issues as { text: string; phrase: string }[];
    const outcomes = analytics.outcomes as { text: string }[];
    const actions = analytics.action_items as { text: string }[];
    assert.equal(issues.length, 1, JSON.stringify(analytics));
    assert.equal(issues[0].phrase, 'charged twice');
    assert.equal(outcomes.length, 1);
    assert.equal(actions.length, 1);
    const out = JSON.stringify({ issues, outcomes, actions, summary: analytics.summary });
    assert.match(out, /charged twice/);
    for (const value of ['4111', '1111', 'john', 'smith']) assert.equal(out.toLowerCase().includes(value), false, `${value} in ${out}`);
  });

  test("a job's detections and summary come from its redacted transcript", async () => {
    const text = ['Caller: my name is john smith and my card was charged twice', 'Agent: thank you john smith i have refunded the charge', 'Caller: my card is 4111 1111 1111 1111', 'Agent: you will receive an email today'].join('\n');
    const res = await svc.request({ method: 'POST', url: '/asr/transcribe?wait=300', payload: { text, types: ['Person', 'CreditCardNumber'], analytics: true } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(json(res).status, 'completed', res.body);
    const read = await svc.request({ method: 'GET', url: `/asr/jobs/${json(res).jobId}` });
    assert.equal(read.statusCode, 200, read.body);
    const analytics = json(read).analytics as Record<string, unknown>;
    const out = JSON.stringify({ issues: analytics.issues, outcomes: analytics.outcomes, actions: analytics.action_items, summary: analytics.summary });
    assert.equal((analytics.issues as unknown[]).length, 1, out);
    assert.equal((analytics.outcomes as unknown[]).length, 1, out);
    assert.equal((analytics.action_items as unknown[]).length, 1, out);
    assert.match(out, /charged twice/);
    for (const value of ['4111', '1111', 'john', 'smith']) assert.equal(out.toLowerCase().includes(value), false, `${value} in ${out}`);
  });

  test("a project's phrases are validated at publish and used on its records", async () => {
    const project = { sid: 'outcomes-project', name: 'Outcomes', active: true, agent_location: 'left', inbound: true, scrubaudio: false, scrubtext: true, rules: [] };
    const bad = await svc.request({ method: 'POST', url: '/system/cache/v2/publish', payload: { data: JSON.stringify({ ...project, callOutcomes: { issues: ['*'] } }) } });
    assert.equal(bad.statusCode, 400, bad.body);
    assert.match(bad.body, /\/data\/callOutcomes\/issues\/0/);
    const good = await svc.request({ method: 'POST', url: '/system/cache/v2/publish', payload: { data: JSON.stringify({ ...project, callOutcomes: { issues: ['router * blinking'] } }) } });
    assert.equal(good.statusCode, 200, good.body);
    const posted = await svc.request({
      method: 'POST',
      url: '/cache/post-call',
      payload: { eventId: 'outcomes-project-1', redactionRequest: { sid: 'outcomes-project' }, utterances: [{ text: 'the router keeps blinking red', speaker: 1, start: 0, end: 3 }] },
    });
    assert.equal(posted.statusCode, 201, posted.body);
    assert.deepEqual((json(posted).analytics.issues as { phrase: string }[]).map((d) => d.phrase), ['router * blinking']);
  });
});
