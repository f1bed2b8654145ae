// Agent and Caller from a call's json-v2 speaker tags (S1 is the agent whichever channel it was recorded on), the
// job's agent_location for a channel with no word, none on a mono call.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { channelLabels, labelOf } from '../../console/src/roles.js';

const item = (channel: string, speaker: string) => ({ channel, alternatives: [{ speaker }] });

test('the agent recorded on the right is the Agent, by its speaker tag', () => {
  const labels = channelLabels([item('channel_1', 'S2'), item('channel_2', 'S1')], 2);
  assert.equal(labelOf(labels, 0), 'Caller');
  assert.equal(labelOf(labels, 1), 'Agent');
});

test('a channel with no word takes its side from agent_location; mono has no roles', () => {
  assert.deepEqual([...channelLabels([item('channel_1', 'S2')], 2, 'right')], [[0, 'Caller'], [1, 'Agent']]);
  assert.deepEqual([...channelLabels([], 2)], [[0, 'Agent'], [1, 'Caller']]);
  assert.deepEqual([...channelLabels([], 2, 'right')], [[0, 'Caller'], [1, 'Agent']]);
  const mono = channelLabels([item('channel_1', 'S1')], 1);
  assert.equal(mono.size, 0);
  assert.equal(labelOf(mono, 0), 'Channel 1');
});
