// The dashboard's figures from GET /asr/insights/summary: per group the analysed calls, talk time in minutes
// per side, calls by the caller's sentiment, and matches and violations summed over every insight; groups in
// order, the group of calls carrying none last.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dailyFigures } from '../../console/src/dailyFigures.js';

test('figures per group from the summary', () => {
  const days = dailyFigures({
    groupBy: 'day',
    truncated: false,
    calls: [
      { group: '2026-11-28', calls: 2, talkTimeAgent: 120, talkTimeCaller: 45, callerSentiment: { negative: 1, neutral: 1, positive: 0 } },
      { group: '2026-11-27', calls: 1, talkTimeAgent: 60, talkTimeCaller: 0, callerSentiment: { negative: 0, neutral: 0, positive: 1 } },
    ],
    groups: [
      { group: '2026-11-28', insights: [{ id: 'a', calls: 2, matched: 2, violations: 0, lines: 3 }, { id: 'b', calls: 2, matched: 0, violations: 1, lines: 0 }] },
      { group: null, insights: [{ id: 'a', calls: 1, matched: 1, violations: 0, lines: 1 }] },
    ],
  });
  assert.deepEqual(days, [
    { day: '2026-11-27', calls: 1, agentMinutes: 1, callerMinutes: 0, positive: 1, neutral: 0, negative: 0, matches: 0, violations: 0 },
    { day: '2026-11-28', calls: 2, agentMinutes: 2, callerMinutes: 0.75, positive: 0, neutral: 1, negative: 1, matches: 2, violations: 1 },
    { day: '—', calls: 0, agentMinutes: 0, callerMinutes: 0, positive: 0, neutral: 0, negative: 0, matches: 1, violations: 0 },
  ]);
  assert.deepEqual(dailyFigures({ groupBy: 'day', truncated: false, calls: [], groups: [] }), []);
});
