// Must-show 2 at the level of the language: the expression language (phrases, wildcards, AND/OR/NOT, NEAR/n,
// speakers, time windows, spoken numbers), insight fields (channel, offsets, response lines, compliance), and
// parse errors naming the problem and its position.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compileInsights } from '../../src/conversation/insights/definitions.js';
import { evaluate, MatchIndex } from '../../src/conversation/insights/evaluate.js';
import { ExpressionError, parseExpression } from '../../src/conversation/insights/expression.js';
import { runInsights } from '../../src/conversation/insights/run.js';
import { conversationOfRecord } from '../../src/conversation/normalize.js';
import type { EventRecord } from '../../src/schema/resources/eventRecord.js';
import type { Insight } from '../../src/schema/resources/insight.js';

/** Agent on channel 0, caller on channel 1; one word per 0.5 s from each line's start. */
function call(lines: [0 | 1, number, string][]): EventRecord {
  return {
    campaign: { agentLocation: 'left' },
    vendorATranscript: {
      audiosecs: 60,
      utterances: lines.map(([channel, start, text]) => ({
        metadata: { channel },
        events: text.split(' ').map((word, i) => ({ word, start: start + i * 0.5, end: start + i * 0.5 + 0.45, confidence: 0.9 })),
      })),
    },
  } as unknown as EventRecord;
}

const CALL = call([
  [0, 0, 'thank you for calling this call may be recorded for quality purposes'],
  [1, 8, 'hi i lost my debit card yesterday'],
  [0, 13, 'can i have your account number please'],
  [1, 17, 'sure it is one two three four'],
  [1, 21, 'i owe five hundred dollars on my payment'],
  [0, 26, 'is this call recorded for quality'],
  [1, 30, 'yes it is recorded for quality as you said'],
  [0, 50, 'thank you goodbye'],
]);
const conversation = conversationOfRecord(CALL)!;
const index = new MatchIndex(conversation, 60);
const lines = (expression: string) => [...new Set(evaluate(parseExpression(expression), index).hits.map((h) => h.line))];
const matched = (expression: string) => evaluate(parseExpression(expression), index).matched;

describe('insight expressions', () => {
  test('phrases, wildcards, boolean operators, NEAR', () => {
    assert.deepEqual(lines('"recorded for quality"'), [0, 5, 6]);
    assert.deepEqual(lines('recorded for quality'), [0, 5, 6], 'bare words in a row are a phrase');
    assert.deepEqual(lines('pay*'), [4]);
    assert.deepEqual(lines('debit * yesterday'), [1]);
    assert.equal(matched('lost NEAR/2 card'), true);
    assert.equal(matched('lost NEAR/1 card'), false);
    assert.equal(matched('lost AND goodbye'), true);
    assert.equal(matched('lost AND refund'), false);
    assert.equal(matched('refund OR lost'), true);
    assert.equal(matched('lost AND NOT refund'), true);
    assert.equal(matched('NOT lost'), false);
  });

  test('spoken numbers match digits and #', () => {
    assert.deepEqual(lines('"500 dollars"'), [4]);
    assert.deepEqual(lines('"five hundred dollars"'), [4]);
    assert.deepEqual(lines('# dollars'), [4]);
    assert.deepEqual(lines('"it is 1234"'), [3], 'a digit run said one by one');
  });

  test('speaker and time constraints', () => {
    assert.deepEqual(lines('agent:"recorded for quality"'), [0, 5]);
    assert.deepEqual(lines('caller:"recorded for quality"'), [6]);
    assert.deepEqual(lines('"recorded for quality"[,10]'), [0]);
    assert.deepEqual(lines('goodbye[-15,]'), [7]);
    assert.deepEqual(lines('"thank you"[-15,]'), [7]);
  });

  test('a bad expression names the problem and its position', () => {
    const cases: [string, RegExp, number][] = [
      ['"recorded for', /unclosed quote/, 0],
      ['lost AND', /ends where a phrase was expected/, 8],
      ['lost NEAR/x card', /NEAR needs a word distance/, 5],
      ['(lost OR card', /"\(" is not closed/, 0],
      ['lost OR card)', /unbalanced "\)"/, 12],
      ['boss:hello', /unknown speaker "boss"/, 0],
      ['hello[a,3]', /not a number of seconds/, 6],
      ['', /empty expression/, 0],
      ['AND lost', /expected a phrase/, 0],
    ];
    for (const [source, problem, position] of cases) {
      assert.throws(() => parseExpression(source), (e: unknown) => e instanceof ExpressionError && problem.test(e.problem) && e.position === position, source);
    }
  });
});

describe('insights over a call', () => {
  const run = (insights: Insight[]) => runInsights(compileInsights(insights, '/insights'), conversation, { direction: 'inbound' }, index);

  test('a disclosure said by the agent is found with its line and time; said by the caller only, it is not', () => {
    const [disclosure] = run([{ id: 'rec', expression: '"may be recorded"', channel: 0 }]);
    assert.equal(disclosure.matched, true);
    assert.deepEqual(disclosure.lines.map((l) => [l.hit.line, l.hit.start, l.hit.speaker]), [[0, 3, 0]]);
    const [byCaller] = run([{ id: 'said-as-you-said', expression: '"as you said"', channel: 0 }]);
    assert.equal(byCaller.matched, false, 'the caller said it, not the agent');
  });

  test('a missing disclosure is a compliance violation; a present one is not', () => {
    const [missing, present] = run([
      { id: 'mini-miranda', expression: '"attempt to collect a debt"', channel: 0, complianceViolation: true },
      { id: 'rec', expression: 'recorded', channel: 0, complianceViolation: true },
    ]);
    assert.equal(missing.violation, true);
    assert.equal(present.violation, false);
  });

  test('a question and the other side\'s response within searchLinesAfter are linked', () => {
    const [q] = run([{ id: 'acct', expression: '"account number"', response: 'sure OR yes', searchLinesAfter: 1 }]);
    assert.equal(q.lines[0].hit.line, 2);
    assert.equal(q.lines[0].response?.line, 3);
    const [none] = run([{ id: 'acct', expression: '"account number"', response: 'goodbye', searchLinesAfter: 1 }]);
    assert.equal(none.lines[0].response, undefined, 'goodbye is said, but not within one line');
  });

  test('offsets, direction, leg and active', () => {
    const [late] = run([{ id: 'late', expression: 'recorded', enableStartOffset: true, startOffset: 20 }]);
    assert.deepEqual(late.lines.map((l) => l.hit.line), [5, 6]);
    const [early] = run([{ id: 'early', expression: 'recorded', enableEndOffset: true, endOffset: 20 }]);
    assert.deepEqual(early.lines.map((l) => l.hit.line), [0]);
    const [ignoredOffset] = run([{ id: 'off', expression: 'recorded', startOffset: 20 }]);
    assert.equal(ignoredOffset.lines.length, 3, 'an offset without its enable flag does nothing');
    const [outbound] = run([{ id: 'out', expression: 'recorded', direction: 2 }]);
    assert.equal(outbound.applies, false);
    const [leg2] = run([{ id: 'leg', expression: 'recorded', leg: 2 }]);
    assert.equal(leg2.applies, false);
    assert.equal(run([{ id: 'x', expression: 'recorded', active: false }]).length, 0);
  });

  test('alert and redaction flags are carried', () => {
    const [r] = run([{ id: 'acct', expression: '"account number"', alert: true, alertMessage: 'verify', redactLine: true }]);
    assert.equal(r.alert, true);
    assert.equal(r.redactions[0].redactLine, true);
    assert.equal(r.redactions[0].text, true);
  });

  test('a bad insight expression is refused naming the insight, problem and position', () => {
    assert.throws(
      () => compileInsights([{ id: 'ok', expression: 'hello' }, { id: 'bad', expression: 'lost AND' }], '/insights'),
      (e: { status?: number; issues?: { pointer: string; message: string }[] }) =>
        e.issues?.[0].pointer === '/insights/1/expression' && /position 8/.test(e.issues[0].message),
    );
  });
});
