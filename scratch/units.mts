import { decodeChannels } from '../src/audio/decode.js';
import { speechBatches } from '../src/engine/speechBatches.js';
for (const f of ['/tmp/cs/stream0.wav', '/tmp/cs/digits-groups.wav']) {
  const a = await decodeChannels(f, { sampleRate: 16000 });
  for (const gap of [0, 3]) {
    const r = speechBatches(a.channels[0], 16000, {}, { maxUnitSeconds: 15, batchSeconds: 60, unitGapSeconds: gap });
    console.log(f, gap, r.segments.length, JSON.stringify(r.batches.map((b) => b.units.map((u) => [+(u.start + b.offsetSeconds).toFixed(1), +(u.end + b.offsetSeconds).toFixed(1)]))));
  }
}
