// The response of an insight is looked for at most SCRUBLINE_MAX_RESPONSE_LINES (50) lines before / after its
// hit, whatever searchLinesBefore/After ask: it is looked for again around every hit, so a window as wide as
// the call would walk the call's lines times its lines.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileInsights } from '../../src/conversation/insights/definitions.js';
import { runInsights } from '../../src/conversation/insights/run.js';
import { conversationOfRecord } from '../../src/conversation/normalize.js';
import type { EventRecord } from '../../src/schema/resources/eventRecord.js';

/** Agent asks on line 0; the caller answers `yes` on line `answerLine` (filler between). */
function call(answerLine: number) {
  const utterances = Array.from({ length: answerLine + 1 }, (_, i) => ({
    speaker: i % 2,
    text: i === 0 ? 'may i take your card number' : i === answerLine ? 'yes sure' : i % 2 ? 'hmm' : 'one moment',
  }));
  return conversationOfRecord({ eventId: 'c', utterances } as EventRecord)!;
}

const insight = compileInsights([{ id: 'ask', expression: '"card number"', response: 'yes', searchLinesAfter: 1_000_000 }], '/insights');

test('a response within 50 lines is found; one further away is not, however wide the window asked', () => {
  const near = runInsights(insight, call(49))[0];
  assert.equal(near.lines[0].response?.line, 49);
  const far = runInsights(insight, call(61))[0];
  assert.equal(far.lines.length, 1);
  assert.equal(far.lines[0].response, undefined);
});
