// Held-out guard for Person and Address: hand-written contact-center sentences (test/redact/heldout.data.ts), in
// written and in ASR form, kept apart from the Presidio sample the recognizers are tuned on. Bounds sit a little
// under what was measured (written Person P93/R96, ASR P96/R96; Address 100/100 both forms) so a change that
// costs recall or floods transcripts with false names fails here, not on a customer's calls.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evaluateHeldout } from '../../eval/pii.js';
import { detectText, detectWords } from '../../src/redact/detect.js';
import { heldoutSpoken, heldoutWritten, parseMarked } from './heldout.data.js';

test('held-out markup parses into text and gold spans', () => {
  const s = parseMarked('my name is [P:ana li] at [A:nine elm court]', true);
  assert.equal(s.text, 'my name is ana li at nine elm court');
  assert.deepEqual(s.words?.length, 9);
  assert.deepEqual(s.gold.map((g) => [g.kind, s.text.slice(g.start, g.end)]), [['Person', 'ana li'], ['Address', 'nine elm court']]);
  assert.ok(heldoutWritten().length >= 40 && heldoutSpoken().length >= 40);
});

test('held-out Person and Address recall and precision, written and ASR form', () => {
  const { written, spoken } = evaluateHeldout();
  const bounds = {
    written: { Person: { p: 0.85, r: 0.88 }, Address: { p: 0.9, r: 0.9 } },
    spoken: { Person: { p: 0.85, r: 0.88 }, Address: { p: 0.9, r: 0.9 } },
  } as const;
  for (const [form, scores] of [['written', written], ['spoken', spoken]] as const) {
    for (const kind of ['Person', 'Address'] as const) {
      const s = scores.get(kind)!;
      assert.ok(s.gold >= 14, `${form} ${kind}: too few gold spans (${s.gold})`);
      assert.ok(s.precision >= bounds[form][kind].p, `${form} ${kind} precision ${s.precision.toFixed(2)}`);
      assert.ok(s.recall >= bounds[form][kind].r, `${form} ${kind} recall ${s.recall.toFixed(2)}`);
    }
  }
});

test('common words that are also names stay unredacted', () => {
  for (const t of ['Will you grant me more time on the bill?', 'Mark it as paid in May.', 'Is there a branch in Houston?']) {
    assert.deepEqual(detectText(t, { kinds: ['Person'] }).map((d) => d.text), [], t);
  }
  for (const t of ['will you grant me more time on the bill', 'mark it as paid in may', 'can you bill me in june']) {
    assert.deepEqual(detectWords(t.split(' '), { kinds: ['Person'] }).map((d) => d.text), [], t);
  }
});

test('new Person cues and Address forms', () => {
  const one = (t: string, kind: 'Person' | 'Address') => detectText(t, { kinds: [kind] }).map((d) => d.text);
  const oneW = (t: string, kind: 'Person' | 'Address') => detectWords(t.split(' '), { kinds: [kind] }).map((d) => d.text);
  assert.deepEqual(one('The account is under my wife Priya Raman.', 'Person'), ['Priya Raman']);
  assert.deepEqual(oneW('my son ethan set up the autopay', 'Person'), ['ethan']);
  assert.ok(one("Here's Arne's address.", 'Person').includes("Arne's"));
  assert.deepEqual(one('"Fine," says Eklund.', 'Person'), ['Eklund']);
  assert.deepEqual(one('Send it to PO Box 4471, Tulsa, OK 74101.', 'Address'), ['PO Box 4471, Tulsa, OK 74101']);
  assert.deepEqual(oneW('send it to p o box four four seven one tulsa oklahoma', 'Address'), ['p o box four four seven one tulsa oklahoma']);
  assert.deepEqual(one('I used to live on Birchwood Avenue but moved.', 'Address'), ['Birchwood Avenue']);
  assert.deepEqual(oneW('we moved to maple ridge drive last year', 'Address'), ['maple ridge drive']);
  assert.deepEqual(one('Apt. 827, Kaplice, Iceland 80392', 'Address').some((x) => x.includes('80392')), true);
});
