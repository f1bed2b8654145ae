// What the real-call edge rule (redact/conversationMessages.ts: a digit group ending a message, or continuing the
// last one, is masked because an answer cannot be recalled) costs on the dev text: each text of the dev PII
// corpus sent as one message of one conversation (one speaker, in corpus order), redacted alone for the default
// kinds, then through the conversation step with the messages before it. Counts the messages the step changes
// (the answer, or a kept message rewritten), and those where what it masked is outside the labelled PII spans.
// Run: npx tsx bench/real-call-edges.ts
import { readFileSync } from 'node:fs';
import { redactAcrossMessages } from '../src/redact/conversationMessages.js';
import { DEFAULT_KINDS } from '../src/redact/entityKinds.js';
import { Masker } from '../src/redact/masks.js';
import { redactText } from '../src/redact/redactText.js';
import { resolveRules } from '../src/redact/policy.js';

interface Sample {
  full_text: string;
  spans: { start_position: number; end_position: number }[];
}
const pii = JSON.parse(readFileSync(new URL('../test/fixtures/dev-data/pii/presidio_generated_small.json', import.meta.url), 'utf8')) as Sample[];
const rules = resolveRules({ types: [...DEFAULT_KINDS] });
const masker = new Masker('');

let changed = 0;
let rewritten = 0;
let endingInDigits = 0;
const extra: string[] = [];
let kept: string[] = [];
let continues: string | undefined;
for (const sample of pii) {
  const alone = redactText(sample.full_text, rules, masker).text;
  const step = redactAcrossMessages(kept, alone, rules, masker, continues);
  for (const [i, text] of step.earlier.entries()) {
    if (text === undefined) continue;
    rewritten++;
    extra.push(`kept ${JSON.stringify(kept[i])} -> ${JSON.stringify(text)}`);
    kept[i] = text;
  }
  kept.push(step.text);
  continues = step.held;
  if (/[0-9]\W*$/.test(sample.full_text)) endingInDigits++;
  if (step.text === alone) continue;
  changed++;
  // What the step masked that redaction alone left: is it inside a labelled PII span of the original?
  const tail = alone.slice(commonPrefix(alone, step.text));
  const at = sample.full_text.lastIndexOf(tail.trim().split(/\s+/)[0] ?? '');
  const labelled = sample.spans.some((s) => at >= s.start_position && at < s.end_position);
  if (!labelled) extra.push(`${JSON.stringify(alone)} -> ${JSON.stringify(step.text)}`);
}
console.log(`messages ${pii.length}, ending in a digit ${endingInDigits}, answers changed by the step ${changed}, kept messages rewritten ${rewritten}; outside labelled PII: ${extra.length}`);
for (const e of extra) console.log(`  ${e}`);

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}
