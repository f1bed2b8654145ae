// Time-ordered ids sort in creation order, also many within one millisecond.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { uuidv7 } from '../src/store/ids.js';

test('uuidv7 ids are valid UUIDs in creation order', () => {
  const ids = Array.from({ length: 5000 }, () => uuidv7());
  for (const id of ids.slice(0, 10)) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(new Set(ids).size, ids.length);
});
