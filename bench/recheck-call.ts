// The re-recognition check and payment segments on a spoken two-party call (issue 31): a 48 kHz Opus stereo
// call made with espeak-ng (agent left, caller right): small talk with a stray number, the agent asks for the
// card, expiry and code, the caller reads them, more talk, another stray number at the end. Each way of asking
// runs as a job through the service with the bundled engine; printed per job: status, re-check rounds and
// widened stretches (kinds), and per channel the seconds muted and the share of speech muted.
//
//   npx tsx bench/recheck-call.ts            (BENCH_CASES=default,cues,payment to choose; about 1–3 min each)
// Results: printed, and written to bench/results/recheck-call-<time>.json.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { buildApp } from '../src/api/app.js';
import { loadConfig } from '../src/config.js';
import { closeSharedPool } from '../src/engine/pool.js';
import { createServices } from '../src/services.js';
import { multipart } from '../test/helpers/multipart.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The call, turn by turn: [channel, text]. 0 is the agent, 1 the caller. */
const TURNS: [number, string][] = [
  [0, 'Thank you for calling, this is Sam. How can I help you today?'],
  [1, 'Hi, I called two days ago about a charge on my bill, and I would like to pay it now.'],
  [0, 'Of course. I can see the bill here. It came in last week and it is still open on the account.'],
  [1, 'Yes, that is the one. I was away on holiday and I did not see the letter until yesterday.'],
  [0, 'No problem at all. Can I have the long number on the front of your card please?'],
  [1, 'Yes, it is four five three nine, one four eight eight, oh three four three, six four six seven.'],
  [0, 'And the expiry date?'],
  [1, 'Oh nine, twenty seven.'],
  [0, 'And the three digit code on the back?'],
  [1, 'Seven three one.'],
  [0, 'Thank you, the payment went through and the bill is now closed. Is there anything else I can help you with today?'],
  [1, 'Yes, actually. I ordered a new phone last month and it never arrived. Could you check the delivery for me?'],
  [0, 'Let me look at that for you. It left our warehouse on Monday, and the courier says it should be with you by Friday.'],
  [1, 'That is great news. My neighbour was asking about it too, she ordered the same one.'],
  [0, 'I hope you both enjoy them. Is there anything else at all?'],
  [1, 'No, that is everything. Oh, and my reference was five five two, in case you need it. Thanks for your help, have a nice day.'],
];

const CASES: Record<string, { fields: Record<string, string>; project?: Record<string, unknown> }> = {
  // The default way of asking: the card kinds, audio too.
  default: { fields: { scrubaudio: 'true', types: 'CreditCardNumber,ExpirationDate,CVV' } },
  // With the cue and number-speech windows on.
  cues: { fields: { scrubaudio: 'true', types: 'CreditCardNumber,ExpirationDate,CVV', cueWindows: 'true' } },
  // With the caller's channel muted over each payment segment.
  payment: {
    fields: { sid: 'bench-payment', cueWindows: 'true' },
    project: { sid: 'bench-payment', scrubaudio: true, scrubtext: true, windowMode: 'payment-segment', rules: ['CreditCardNumber', 'ExpirationDate', 'CVV'].map((name) => ({ name, active: true })) },
  },
};

function run(cmd: string, args: string[]) {
  execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'] });
}

const durationOf = (file: string) => Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=nw=1:nk=1', file], { encoding: 'utf8' }).trim());

/** The call as 48 kHz stereo Opus; answers its file and length. */
function makeCall(dir: string): { file: string; seconds: number } {
  const tracks: string[][] = [[], []];
  let t = 0;
  TURNS.forEach(([channel, text], i) => {
    const raw = path.join(dir, `turn${i}.wav`);
    run('espeak-ng', ['-v', 'en-us', '-s', '160', '-w', raw, text]);
    const d = durationOf(raw);
    tracks[channel].push(`adelay=${Math.round(t * 1000)}|${Math.round(t * 1000)}`, raw);
    t += d + 0.7;
  });
  const side = (channel: number) => {
    const out = path.join(dir, `side${channel}.wav`);
    const inputs = tracks[channel].filter((_, i) => i % 2 === 1);
    const delays = tracks[channel].filter((_, i) => i % 2 === 0);
    const graph = inputs.map((_, i) => `[${i}:a]aresample=16000,${delays[i]}[d${i}]`).join(';') + `;${inputs.map((_, i) => `[d${i}]`).join('')}amix=inputs=${inputs.length}:normalize=0,apad=whole_dur=${t.toFixed(3)}[a]`;
    run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...inputs.flatMap((f) => ['-i', f]), '-filter_complex', graph, '-map', '[a]', '-ac', '1', '-ar', '16000', out]);
    return out;
  };
  const file = path.join(dir, 'call.opus');
  run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', side(0), '-i', side(1), '-filter_complex', '[0:a][1:a]join=inputs=2:channel_layout=stereo[a]', '-map', '[a]', '-ar', '48000', '-c:a', 'libopus', '-b:a', '64k', file]);
  return { file, seconds: durationOf(file) };
}

/** The old payment segment: from the first window (found, marked, keypad) to the last. */
function oldSegment(list: { start: number; end: number; source: string }[]): number {
  const asked = list.filter((w) => w.source !== 'mode' && w.source !== 'entity');
  if (asked.length === 0) return 0;
  return Number((Math.max(...asked.map((w) => w.end)) - Math.min(...asked.map((w) => w.start))).toFixed(2));
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-bench-recheck-'));
  const call = makeCall(dataDir);
  const config = loadConfig({ SCRUBLINE_DATA_DIR: dataDir, SCRUBLINE_SECRET_KEY: 'bench', LOG_LEVEL: 'silent' });
  const services = await createServices(config, pino({ level: 'silent' }));
  const app = await buildApp(services);
  await app.ready();
  await services.worker.start();
  const chosen = (process.env.BENCH_CASES ?? Object.keys(CASES).join(',')).split(',').filter((c) => CASES[c]);
  const results: Record<string, unknown>[] = [];
  console.log(`call: ${call.seconds.toFixed(1)} s, 48 kHz stereo Opus, ${TURNS.length} turns`);
  for (const name of chosen) {
    const { fields, project } = CASES[name];
    if (project) {
      const published = await app.inject({ method: 'POST', url: '/system/cache/v2/publish', payload: { data: JSON.stringify(project) } });
      if (published.statusCode !== 200) throw new Error(`publish: ${published.body}`);
    }
    const started = performance.now();
    const res = await app.inject({ method: 'POST', url: '/asr/transcribe?wait=600', ...multipart(fields, [{ name: 'audio', filename: 'call.opus', content: fs.readFileSync(call.file) }]) });
    const seconds = (performance.now() - started) / 1000;
    const job = JSON.parse(res.body);
    const recheck = job.redaction?.recheck ?? {};
    const row = {
      case: name,
      status: job.status,
      redactionStatus: job.redactionStatus,
      seconds: Number(seconds.toFixed(1)),
      checks: recheck.rounds?.length ?? 0,
      converged: recheck.converged,
      widened: (recheck.widened ?? []).map((w: any) => ({ channel: w.channel, start: w.start, end: w.end, heard: w.heard, where: w.where })),
      windows: job.redaction?.windows?.bySource,
      // payment-segment only: the caller seconds the old rule (first window to last, whole call) would mute.
      ...(name === 'payment' && { oldSegmentSeconds: oldSegment(job.redaction?.windows?.list ?? []), segments: (job.redaction?.windows?.list ?? []).filter((w: any) => w.source === 'mode').map((w: any) => [w.start, w.end]) }),
      report: job.redaction?.report,
    };
    results.push(row);
    console.log(`\n${name}: ${row.status} (redaction ${row.redactionStatus}) in ${row.seconds} s; ${row.checks} check(s), converged ${row.converged}, ${row.widened.length} stretch(es) widened`);
    for (const w of row.widened) console.log(`  widened ch${w.channel} ${w.start}-${w.end} s ${JSON.stringify(w.heard)} ${w.where}`);
    if ('segments' in row) console.log(`  payment segments ${JSON.stringify(row.segments)}; the old rule's one segment: ${row.oldSegmentSeconds} s`);
    for (const r of row.report ?? []) console.log(`  ch${r.channel} ${r.role}: muted ${r.mutedSeconds} s, speech ${r.speechSeconds} s, speech muted ${r.speechMutedSeconds} s (${(r.speechMutedShare * 100).toFixed(1)} %)`);
  }
  await app.close();
  await services.close();
  await closeSharedPool();
  const out = path.join(here, 'results', `recheck-call-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify({ call: { seconds: call.seconds, turns: TURNS.length }, results }, null, 2));
  console.log(`\n${out}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
