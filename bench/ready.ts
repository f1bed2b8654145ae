// GET /ready's engine check (src/engine/decodeCheck.ts): the cost of one test decode, cold (first in the
// process: the model loads in a pool worker) and warm, against the baseline in the same run of the check
// answered from its cache (what every probe within 30 s of a decode costs), for the models installed here.
//
//   npx tsx bench/ready.ts
import { DecodeCheck } from '../src/engine/decodeCheck.js';
import { installedRealModels } from '../src/engine/models.js';

async function main() {
  for (const model of installedRealModels().map((m) => m.name)) {
    const uncached = new DecodeCheck({ model: async () => model, ttlMs: 0 });
    const times: number[] = [];
    for (let i = 0; i < 4; i++) {
      const t = performance.now();
      const result = await uncached.check();
      if (!result.ok) throw new Error(`${model}: ${result.error}`);
      times.push(performance.now() - t);
    }
    const cached = new DecodeCheck({ model: async () => model, ttlMs: 60_000 });
    await cached.check();
    const n = 10_000;
    const t = performance.now();
    for (let i = 0; i < n; i++) await cached.check();
    const cachedUs = ((performance.now() - t) / n) * 1000;
    console.log(`${model}: decode cold ${times[0].toFixed(0)} ms, warm ${(times.slice(1).reduce((a, b) => a + b, 0) / 3).toFixed(0)} ms; cached answer ${cachedUs.toFixed(2)} µs`);
  }
  process.exit(0);
}
void main();
