// What the hostile inputs of the security review (issue 36) cost now, against a plain record in the same run:
// wall time and the process's RSS growth for the work a redaction worker does on each (workers/tasks.ts
// `perform`, run here on the main thread so that its memory is this process's). Each case runs in a child
// process of its own (a fresh heap: one case's garbage is not the next one's RSS).
//
//   node --import tsx bench/hostile-inputs.ts
//
// The cases are at the limits (workLimits.ts defaults): what the service accepts at most. Inputs past the limits
// are refused before any work (test/api/hostile-inputs.test.ts).
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compileInsights } from '../src/conversation/insights/definitions.js';
import { perform } from '../src/workers/tasks.js';
import type { EventRecord } from '../src/schema/resources/eventRecord.js';
import { insightRecord, nearWildcardInsights, plainUtterances, regexRules, ruleRecord } from './fixtures/hostileInputs.js';

interface Case {
  name: string;
  record: () => Record<string, unknown>;
  /** Project insights run besides the record's own. */
  projectInsights?: number;
  /** Redact every kind besides the record's rules. */
  redact?: boolean;
}

const CASES: Case[] = [
  { name: 'plain 6.7 KB record, processing only', record: () => ({ eventId: 'plain-small', utterances: plainUtterances(800) }) },
  { name: '6.7 KB record carrying 100 NEAR/100 wildcard insights (the limit)', record: () => insightRecord('own', 800, 100) },
  { name: 'plain 16 KB record, processing only', record: () => ({ eventId: 'plain-16k', utterances: plainUtterances(2000) }) },
  { name: '16 KB record, project with 200 NEAR/100 wildcard insights (the limit)', record: () => ({ eventId: 'project', utterances: plainUtterances(2000) }), projectInsights: 200 },
  { name: 'plain 109 KB record, every kind redacted', record: () => ({ eventId: 'plain-109k', utterances: plainUtterances(14_000) }), redact: true },
  { name: '109 KB record, every kind + 50 distinct regex rules (the limit)', record: () => ruleRecord('regex', 14_000, regexRules(50)), redact: true },
  { name: '109 KB record, every kind + 500 copies of one regex rule', record: () => ruleRecord('copies', 14_000, regexRules(1, 500)), redact: true },
];

async function runCase(c: Case): Promise<{ ms: number; rssMb: number; peakMb: number }> {
  const record = c.record() as EventRecord;
  const own = compileInsights(record.insights, '/insights');
  const insights = [...own, ...compileInsights(nearWildcardInsights(c.projectInsights ?? 0), '/project/insights')];
  const rules = c.redact ? (await import('../src/redact/policy.js')).policyRules({ kinds: (await import('../src/redact/entityKinds.js')).DEFAULT_KINDS as never, text: true, audio: false }) : [];
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const start = performance.now();
  await perform({ kind: 'postCall', record, ...(c.redact && { redact: { rules, stamp: {} } }), process: { insights, own, hashKey: 'bench' } });
  const ms = performance.now() - start;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { ms, rssMb: (process.memoryUsage().rss - before) / 2 ** 20, peakMb: (peak - before) / 2 ** 20 };
}

if (process.argv[2] === '--case') {
  const result = await runCase(CASES[Number(process.argv[3])]);
  process.send!(result);
} else {
  console.log('| case | chars (JSON) | time ms | RSS growth MB (peak) |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const [i, c] of CASES.entries()) {
    const child = fork(fileURLToPath(import.meta.url), ['--case', String(i)], { execArgv: ['--import', 'tsx', '--expose-gc'] });
    const result = await new Promise<{ ms: number; rssMb: number; peakMb: number }>((resolve, reject) => {
      child.once('message', (m) => resolve(m as never));
      child.once('exit', (code) => reject(new Error(`case ${c.name} exited ${code}`)));
    });
    child.kill();
    console.log(`| ${c.name} | ${JSON.stringify(c.record()).length} | ${result.ms.toFixed(0)} | ${result.rssMb.toFixed(0)} (${result.peakMb.toFixed(0)}) |`);
  }
}
