// Same output before and after a speed change to post-call redaction and processing: a set of records goes
// through the post-call task (redaction with the record's own rules, then processing: workers/tasks.ts's
// `perform`) as this tree does it and as another checkout does it, and every answer must be byte for byte the
// same. The records: the bench record (bench/fixtures/realisticRecord.ts, three seeds), the README sample
// (examples/post-call-record.json), and calls made of the dev split of the PII corpus (scripts/pii-corpus/: each
// call 40 turns, two speakers, the ASR words as vendor-A word events and the written text as utterances, a few
// values repeated in other fields), each under four mask types and with record rules (a phrase, a regular
// expression, an allow-listed word), all kinds of the corpus redacted.
//
//   node --import tsx bench/post-call-equivalence.ts /path/to/old/checkout      (exit status 1 on any difference)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { generate } from '../scripts/pii-corpus/generate.js';
import type { EventRecord } from '../src/schema/resources/eventRecord.js';
import { realisticRecord } from './fixtures/realisticRecord.js';

type Json = Record<string, unknown>;
type Rule = { kind: string; maskType: string; setting: string };

const KINDS = ['Person', 'Address', 'Email', 'PhoneNumber', 'DateOfBirth', 'ZipCode', 'CreditCardNumber', 'USSocialSecurityNumber'];
const LABEL = (kind: string) => `[${kind.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()}]`;
const MASKS: Record<string, (kind: string) => Rule> = {
  placeholder: (kind) => ({ kind, maskType: 'Placeholder', setting: LABEL(kind) }),
  index: (kind) => ({ kind, maskType: 'EntityIndex', setting: LABEL(kind) }),
  hash: (kind) => ({ kind, maskType: 'Hash', setting: LABEL(kind) }),
  character: (kind) => ({ kind, maskType: 'MaskCharacter', setting: '*' }),
};

/** Calls of 40 dev-split turns: the speakers alternate, ASR words as word events, written text as utterances. */
function corpusRecords(): { name: string; record: Json }[] {
  const turns = generate('dev');
  const out: { name: string; record: Json }[] = [];
  for (let c = 0; c * 40 < turns.length; c++) {
    const call = turns.slice(c * 40, c * 40 + 40);
    let t = 0;
    const vendor: Json[] = [];
    const utterances: Json[] = [];
    call.forEach((turn, line) => {
      const start = t;
      const events = turn.asr.words.map((word) => {
        const e = { word, wordex: word.length > 3 && line % 3 === 0 ? word[0].toUpperCase() + word.slice(1) : word, start: t, end: t + 0.3, confidence: 0.9 };
        t += 0.35;
        return e;
      });
      vendor.push({ metadata: { channel: line % 2 }, start, events });
      utterances.push({ start, end: t, text: turn.written.text, formattedText: turn.written.text.replace(/\.$/, ''), speaker: line % 2, channel: line % 2 });
      t += 0.5;
    });
    const first = call.find((u) => u.written.gold.length > 0);
    const value = first ? first.written.text.slice(first.written.gold[0].start, first.written.gold[0].end) : 'nothing';
    out.push({
      name: `dev-call-${c}`,
      record: {
        eventId: `eq-${c}`,
        conversationId: `conv-eq-${c}`,
        vendorATranscript: { utterances: vendor, ctidata: { full_name: value, user_name: 'agent smith' } },
        utterances,
        conversation: { name: value, summary: call.slice(0, 3).map((u) => u.written.text).join(' ') },
        insightLines: call.slice(0, 5).map((u, line) => ({ insightId: 'i-1', line, value: u.written.text, speaker: line % 2 })),
        custom0: JSON.stringify({ note: call[1]?.written.text ?? '', again: value }),
        entities: [{ text: value, category: 1 }],
      },
    });
  }
  return out;
}

/** The same record with record rules: a literal phrase, a regular expression, an allow-listed word. */
function withRecordRules(record: Json): Json {
  return {
    ...record,
    redactionTypes: [{ rules: [{ value: 'card services', type: 'Custom' }, { value: '/\\b\\d{3}\\b/', type: 'Custom', maskType: 'Placeholder', setting: '[NUM]' }] }],
    contentGroups: [{ contentItems: [{ value: 'thank', ignore: true }, { value: 'account', typeName: 'Custom' }] }],
  };
}

function records(): { name: string; record: Json }[] {
  const example = JSON.parse(fs.readFileSync(new URL('../examples/post-call-record.json', import.meta.url), 'utf8')) as Json;
  const base = [
    ...[1, 2, 3].map((seed) => ({ name: `bench-seed-${seed}`, record: realisticRecord({ seed, eventId: `bench-${seed}` }) as unknown as Json })),
    { name: 'readme-example', record: example },
    ...corpusRecords(),
  ];
  return base.flatMap(({ name, record }) => [
    { name, record },
    { name: `${name}+record-rules`, record: withRecordRules(record) },
  ]);
}

/** Every record under every mask, through `perform` of the tree at `root`: name -> sha1 of the answer. */
export async function answers(root: string): Promise<Map<string, string>> {
  const { perform } = (await import(path.join(root, 'src/redact/workers/tasks.ts'))) as { perform: (task: unknown, owned?: boolean) => unknown };
  const out = new Map<string, string>();
  for (const { name, record } of records()) {
    for (const [maskName, mask] of Object.entries(MASKS)) {
      const task = {
        kind: 'postCall',
        // A copy handed over, as a redaction worker gets it (redacted in place where the tree does that).
        record: structuredClone(record) as unknown as EventRecord,
        redact: { rules: KINDS.map(mask), stamp: { policy: 'equivalence' } },
        process: { insights: [], own: [], hashKey: 'equivalence-key' },
      };
      let answer: string;
      let kind = 'processed';
      try {
        const processed = (await perform(task, true)) as { record: Json; failure?: string };
        if (processed.failure) kind = 'failed';
        answer = JSON.stringify(processed);
      } catch (error) {
        kind = 'threw';
        answer = `${(error as Error).name}: ${(error as Error).message}`;
      }
      // What the answer was (processed, failed, threw) stays readable; the answer itself is compared by hash.
      out.set(`${name} ${maskName}`, `${kind} ${createHash('sha1').update(answer).digest('hex')}`);
    }
  }
  return out;
}

// Each tree runs in a process of its own: both would otherwise share the NLP library's module state.
const [flag, tree] = process.argv.slice(2);
if (flag === '--tree') {
  process.stdout.write(JSON.stringify([...(await answers(path.resolve(tree)))]));
} else {
  const old = flag;
  if (!old) throw new Error('usage: node --import tsx bench/post-call-equivalence.ts /path/to/old/checkout');
  const here = path.resolve(import.meta.dirname, '..');
  const run = (root: string) =>
    new Map<string, string>(JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', path.join(here, 'bench/post-call-equivalence.ts'), '--tree', root], { cwd: here, encoding: 'utf8', maxBuffer: 64 << 20 })));
  const before = run(path.resolve(old));
  const after = run(here);
  let differ = 0;
  for (const [name, hash] of after) {
    if (before.get(name) !== hash) {
      differ++;
      console.log(`DIFFERENT ${name}: ${before.get(name)} -> ${hash}`);
    }
  }
  const kinds = new Map<string, number>();
  for (const v of after.values()) kinds.set(v.split(' ')[0], (kinds.get(v.split(' ')[0]) ?? 0) + 1);
  console.log(`answers: ${[...kinds].map(([k, n]) => `${n} ${k}`).join(', ')}`);
  console.log(`${after.size} answers compared (${old} against ${here}): ${differ} different`);
  process.exitCode = differ > 0 || before.size !== after.size ? 1 : 0;
}
