// An insight a client sends (a record's own, a project being published) may ask for its response at most
// SCRUBLINE_MAX_RESPONSE_LINES (50) lines before / after its hit: the response is looked for again around every
// hit, so a window as wide as the call would walk the call's lines times its lines. Past it the insight is
// refused (400 naming the limit), never narrowed: a response not found may be a redaction not made.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileInsights } from '../../src/conversation/insights/definitions.js';
import { ServiceError } from '../../src/errors.js';
import { RECORD_INSIGHTS } from '../../src/workLimits.js';

test('searchLinesBefore/After past the limit are refused naming it; at the limit they are taken', () => {
  const insight = (searchLinesAfter: number) => [{ id: 'ask', expression: '"card number"', response: 'yes', searchLinesAfter }];
  assert.equal(compileInsights(insight(50), '/insights', RECORD_INSIGHTS).length, 1);
  assert.throws(
    () => compileInsights(insight(1_000_000), '/insights', RECORD_INSIGHTS),
    (error: unknown) => error instanceof ServiceError && error.kind === 'invalid' && /insights\[0\]\.searchLinesAfter: 1000000 lines; .*SCRUBLINE_MAX_RESPONSE_LINES/.test(error.message),
  );
  // A project already in force keeps its insights as published (no limit given where they run).
  assert.equal(compileInsights(insight(1_000_000), '/project/insights').length, 1);
});
