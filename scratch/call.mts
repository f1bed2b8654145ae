import { buildCall, measureCoverage } from '../test/helpers/calls.js';
import fs from 'node:fs';
fs.mkdirSync('/tmp/cs/calls', { recursive: true });
const t = Date.now();
const c = buildCall('/tmp/cs/calls', { seed: Number(process.argv[2] ?? 1), snrDb: 15 });
console.log(Date.now() - t, 'ms', c.duration, c.wav);
for (const s of c.script) console.log(s.channel, s.start.toFixed(2), s.end.toFixed(2), s.text);
console.log(c.gold.map((g) => `${g.kind} ${g.start.toFixed(2)}-${g.end.toFixed(2)}`));
console.log(measureCoverage(c.gold, [{ channel: 1, start: 0, end: 20 }]));
