// The Operations charts' time axis: one day of data spans that day and one either side (it spanned 2027–2029:
// uPlot's own padding of a single time point is 1000 days), several days span them plus a day either side.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dayRange, dayX } from '../../console/src/dayRange.js';

const DAY = 86_400;

test('one day of data spans three days, not years', () => {
  const [min, max] = dayRange([dayX('2026-11-27')]);
  assert.equal(max - min, 2 * DAY);
  assert.equal(new Date(min * 1000).toISOString(), '2026-11-26T12:00:00.000Z');
  assert.equal(new Date(max * 1000).toISOString(), '2026-11-28T12:00:00.000Z');
});

test('several days span their first to their last, a day either side, in any order', () => {
  const [min, max] = dayRange(['2026-11-20', '2026-11-01', '2026-11-29'].map(dayX));
  assert.equal(new Date(min * 1000).toISOString().slice(0, 10), '2026-10-31');
  assert.equal(new Date(max * 1000).toISOString().slice(0, 10), '2026-11-30');
});
