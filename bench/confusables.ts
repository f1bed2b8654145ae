// Over-folding of digit look-alikes (confusables.ts) on the dev text: how many tokens of the dev data's texts (the
// PII corpus and the audio references) the fold changes, and which. Only a changed token can be redacted
// differently, so this bounds what the fold can add to redaction. Run: npx tsx bench/confusables.ts
import { readFileSync } from 'node:fs';
import { foldConfusables } from '../src/redact/confusables.js';

const root = new URL('../test/fixtures/dev-data/', import.meta.url);
const pii = JSON.parse(readFileSync(new URL('pii/presidio_generated_small.json', root), 'utf8')) as { full_text: string }[];
const references = readFileSync(new URL('references.tsv', root), 'utf8').split('\n').slice(1).map((l) => l.split('\t')[2] ?? '');
const texts = [...pii.map((p) => p.full_text), ...references];

let tokens = 0;
const changed: string[] = [];
for (const text of texts) {
  const folded = foldConfusables(text);
  const before = text.split(/\s+/).filter(Boolean);
  const after = folded.split(/\s+/).filter(Boolean);
  tokens += before.length;
  before.forEach((t, i) => {
    if (t !== after[i]) changed.push(`${t} -> ${after[i]}`);
  });
}
console.log(`texts ${texts.length}, tokens ${tokens}, changed by the fold ${changed.length} (${((100 * changed.length) / tokens).toFixed(3)} %)`);
for (const c of changed) console.log(`  ${c}`);
