// The dashboard's daily figures from analysed calls: counted per UTC day, talk time in minutes per side, the
// caller's sentiment and the insights by outcome; a call without analytics counts nowhere.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dailyFigures } from '../../console/src/dailyFigures.js';

test('figures per day from the calls analysed', () => {
  const days = dailyFigures([
    { createdAt: '2026-11-28T23:59:00.000Z', analytics: { talk_time_agent: 90, talk_time_caller: 30, sentiment_caller: 'negative', insights: [{ type: 'match' }, { type: 'compliance_violation' }, { type: 'no_match' }] } },
    { createdAt: '2026-11-27T10:00:00.000Z', analytics: { talk_time_agent: 60, talk_time_caller: null, sentiment_caller: 'positive', insights: [] } },
    { createdAt: '2026-11-28T01:00:00.000Z', analytics: { talk_time_agent: 30, talk_time_caller: 15, sentiment_caller: 'neutral', insights: [{ type: 'match' }] } },
    { createdAt: '2026-11-28T02:00:00.000Z' },
  ]);
  assert.deepEqual(days, [
    { day: '2026-11-27', calls: 1, agentMinutes: 1, callerMinutes: 0, positive: 1, neutral: 0, negative: 0, matches: 0, violations: 0 },
    { day: '2026-11-28', calls: 2, agentMinutes: 2, callerMinutes: 0.75, positive: 0, neutral: 1, negative: 1, matches: 2, violations: 1 },
  ]);
  assert.deepEqual(dailyFigures([]), []);
});
