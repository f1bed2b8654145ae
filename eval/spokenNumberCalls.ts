// The synthesized calls of the spoken-numbers evaluation (issue 17), in two sets. DEV: the calls window finding
// was tuned on. TEST: held out, never tuned on: other seeds (so other voices, speeds, numbers and gaps), other
// SNRs and agent sides, and the held-out cue wordings and noise colour of test/helpers/calls.ts (`heldOut`).
import type { CallOptions } from '../test/helpers/calls.js';

export const CALL_SETS: Record<'dev' | 'test', CallOptions[]> = {
  dev: [
    { seed: 11, snrDb: 10, agentChannel: 0 },
    { seed: 12, snrDb: 12, agentChannel: 1 },
    { seed: 13, snrDb: 14, agentChannel: 0 },
    { seed: 14, snrDb: 16, agentChannel: 1 },
    { seed: 15, snrDb: 18, agentChannel: 0 },
    { seed: 16, snrDb: 20, agentChannel: 0 },
  ],
  test: [
    { seed: 201, snrDb: 11, agentChannel: 1, heldOut: true },
    { seed: 202, snrDb: 13, agentChannel: 0, heldOut: true },
    { seed: 203, snrDb: 15, agentChannel: 1, heldOut: true },
    { seed: 204, snrDb: 17, agentChannel: 0, heldOut: true },
    { seed: 205, snrDb: 19, agentChannel: 1, heldOut: true },
    { seed: 206, snrDb: 10, agentChannel: 0, heldOut: true },
  ],
};
