// Post-call processing cost (issue 18): a realistic ~10-minute two-party call (bench/fixtures/realisticRecord.ts,
// 150 utterances with word times) through the service's Conversations in one process, in the same run:
//   storage     validation (the EventRecord schema) + storing the record and its event: the baseline
//   post-call   POST's whole path with every analysis switched off (redaction, figures from times, storage)
//   analytics   the same with everything on: sentiment, key phrases, entities, profanity, 6 insights
//   enrich      the processing step alone (conversation/enrich.ts on the redacted record, inline): how long it
//               held the event loop when post-call ran it inline; post-call now runs it on the redaction pool
//               for a record this large, and the longest event-loop delay seen during the analytics variant is
//               printed beside it (perf_hooks.monitorEventLoopDelay, 5 ms resolution)
//
//   node --import tsx bench/conversation.ts            BENCH_ROUNDS=20 (default) records per variant
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { enrichRecord } from '../src/conversation/enrich.js';
import { compileInsights } from '../src/conversation/insights/definitions.js';
import { recordRoleOptions } from '../src/conversation/normalize.js';
import { switchesOf } from '../src/conversation/switches.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/observability/logger.js';
import type { EventRecord } from '../src/schema/resources/eventRecord.js';
import { check } from '../src/schema/validator.js';
import { createServices } from '../src/services.js';
import { realisticRecord } from './fixtures/realisticRecord.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const INSIGHTS = [
  { id: 'disclosure', expression: '"this call may be recorded" OR "recorded line"', channel: 0, complianceViolation: true },
  { id: 'card', expression: 'card NEAR/3 (lost OR stolen OR charge*)' },
  { id: 'amount', expression: '# dollars OR "dollars and" ' },
  { id: 'verify', expression: 'agent:(verify OR confirm*)', response: 'yes OR sure OR correct', searchLinesAfter: 2 },
  { id: 'cancel', expression: 'caller:cancel* AND NOT agent:retention' },
  { id: 'close', expression: '"anything else"[-120,]', channel: 0 },
];
const ALL_ON = { enableSentimentAnalysis: true, enableKeywords: true, enableEntityExtraction: true, enableInsights: true, enableProfanityFiltering: true };
const ALL_OFF = { enableSentimentAnalysis: false, enableKeywords: false, enableEntityExtraction: false, enableInsights: false };

function stats(ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  const mean = ms.reduce((s, x) => s + x, 0) / ms.length;
  return { mean: mean.toFixed(1), median: sorted[Math.floor(sorted.length / 2)].toFixed(1), max: sorted[sorted.length - 1].toFixed(1) };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-bench-ci-'));
const config = loadConfig({ ...process.env, SCRUBLINE_DATA_DIR: dir, SCRUBLINE_SECRET_KEY: 'bench-secret-key', DATABASE_URL: '' });
const services = await createServices(config, createLogger('silent'));
const raw = realisticRecord() as EventRecord & { processJob: { request?: { types?: unknown } }; redactionRequest?: { types?: unknown; sid?: unknown } };
// Redaction of every kind (the fixture asks for five), as the service's post-call does it; no project sid.
if (raw.processJob.request) {
  delete raw.processJob.request.types;
  delete (raw.processJob.request as { sid?: unknown }).sid;
}
const base = { ...raw, redactionRequest: { ...raw.redactionRequest, types: ['all'], sid: undefined } } as EventRecord;
const words = (base.vendorATranscript?.utterances ?? []).reduce((n, u) => n + (u.events?.length ?? 0), 0);
console.log(`record: ${(JSON.stringify(base).length / 1024).toFixed(0)} KB, ${base.vendorATranscript?.utterances?.length} vendor utterances, ${words} words, ${base.utterances?.length ?? 0} record utterances, ${base.vendorATranscript?.audiosecs} s`);

const results: Record<string, number[]> = { storage: [], 'post-call': [], analytics: [], enrich: [] };
let n = 0;
const loop = monitorEventLoopDelay({ resolution: 5 });
for (let round = 0; round < ROUNDS + 2; round++) {
  const measured = round >= 2; // two warm-up rounds
  const time = async (name: string, run: () => Promise<unknown>) => {
    const t = performance.now();
    await run();
    if (measured) results[name].push(performance.now() - t);
  };
  await time('storage', async () => {
    const record = { ...base, eventId: `bench-s-${n++}` } as EventRecord;
    if (check('EventRecord', record).length > 0) throw new Error('invalid record');
    await services.store.transaction(async (tx) => {
      await tx.conversations.save({ eventId: record.eventId!, conversationId: null, jobId: null, status: 'received', record });
      await tx.events.record({ type: 'conversation', subType: 'received', subject: record.eventId!, status: 'received', details: {} });
    });
  });
  await time('post-call', () => services.conversations.postCall({ ...base, eventId: `bench-p-${n++}`, campaign: { ...base.campaign, ...ALL_OFF } } as EventRecord));
  let processed: EventRecord | undefined;
  if (measured) loop.enable();
  await time('analytics', async () => {
    processed = (await services.conversations.postCall({ ...base, eventId: `bench-a-${n++}`, insights: INSIGHTS, campaign: { ...base.campaign, ...ALL_ON } } as EventRecord)).record;
  });
  loop.disable();
  if (round === 2) {
    console.log(`analytics record: ${processed?.utterances?.length} utterances, ${processed?.insightLines?.length} insight lines, ${processed?.keyPhrases?.length} key phrases, ${processed?.entities?.length} entities, status ${processed?.status}`);
  }
  const input = { ...base, insights: INSIGHTS, campaign: { ...base.campaign, ...ALL_ON, enableProfanityFiltering: false } } as EventRecord;
  await time('enrich', () =>
    enrichRecord(input, {
      insights: compileInsights(INSIGHTS, '/insights'),
      roles: recordRoleOptions(input),
      switches: switchesOf(input.campaign as Record<string, unknown>),
      redact: async () => {
        throw new Error('no redaction in this variant');
      },
    }),
  );
}
console.log(`\n${ROUNDS} records per variant, ms per record (same process, same run):`);
console.log('variant     mean   median  max');
for (const [name, ms] of Object.entries(results)) {
  const s = stats(ms);
  console.log(`${name.padEnd(10)} ${s.mean.padStart(6)} ${s.median.padStart(7)} ${s.max.padStart(6)}`);
}
console.log(`event loop: longest delay during the analytics variant ${(loop.max / 1e6).toFixed(1)} ms (p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms); the processing step inline held it for the enrich figures above`);
await services.close();
fs.rmSync(dir, { recursive: true, force: true });
