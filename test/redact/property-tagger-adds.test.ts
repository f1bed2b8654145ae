// The tagger only adds, through a whole record's redaction (issue 16): for records built from the generated corpus
// (scripts/pii-corpus/) — calls as utterances, vendor word events and free text, their values written again
// without context in other fields, where only the value found elsewhere can mask them — every character the
// rule recognizers alone mask stays masked with the tagger beside them. Character masks keep each field's
// length, so what is masked is compared place by place.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generate, type Utterance } from '../../scripts/pii-corpus/generate.js';
import { RECOGNIZERS } from '../../src/redact/detect.js';
import { DEFAULT_KINDS } from '../../src/redact/entityKinds.js';
import { Masker } from '../../src/redact/masks.js';
import { redactRecord } from '../../src/redact/redactRecord.js';
import type { RedactionRule } from '../../src/redact/rules.js';
import type { EventRecord } from '../../src/schema/resources/eventRecord.js';

const STARS: RedactionRule[] = DEFAULT_KINDS.map((kind) => ({ kind, maskType: 'MaskCharacter', setting: '*' }));
const tagger = RECOGNIZERS.find((r) => r.name === 'tagger')!;

/** Redaction with the tagger on or with the rules alone, whatever the default. */
function redact(record: EventRecord, withTagger: boolean): EventRecord {
  const run = tagger.run;
  tagger.run = withTagger ? (doc) => run({ ...doc, options: { ...doc.options, tagger: true } }) : () => [];
  try {
    return redactRecord(record, STARS, new Masker('k')).record;
  } finally {
    tagger.run = run;
  }
}

const valuesOf = (text: string, gold: Utterance['written']['gold']) => gold.map((g) => text.slice(g.start, g.end)).join(' / ');

/** A call of a few turns: said (ASR words), typed (utterances), and its values alone in other fields. */
function record(turns: Utterance[]): EventRecord {
  const said = turns.map((u) => u.asr.words);
  return {
    vendorATranscript: {
      utterances: said.map((words, i) => ({ metadata: { channel: 1 }, events: words.map((word, k) => ({ word, start: i * 100 + k, end: i * 100 + k + 0.5, confidence: 0.9 })) })),
    },
    utterances: turns.map((u, i) => ({ speaker: 1, start: i, text: u.written.text })),
    details: turns.map((u) => valuesOf(u.written.text, u.written.gold)).join(' | '),
    notes: { said: turns.map((u) => valuesOf(u.asr.words.join(' '), u.asr.gold)).join(' | ') },
    alert: turns.map((u) => u.written.gold.map((g) => `caller ${u.written.text.slice(g.start, g.end).toLowerCase()} gave his card`).join(', ')).join(', '),
  } as unknown as EventRecord;
}

/** Each text of the record by where it is: vendor word events joined by spaces (a masked run is one event). */
function texts(r: EventRecord): Map<string, string> {
  const x = r as unknown as { vendorATranscript: { utterances: { events: { word: string }[] }[] }; utterances: { text: string }[]; details: string; notes: { said: string } };
  const out = new Map<string, string>();
  x.vendorATranscript.utterances.forEach((u, i) => out.set(`events ${i}`, u.events.map((e) => e.word).join(' ')));
  x.utterances.forEach((u, i) => out.set(`utterance ${i}`, u.text));
  out.set('details', x.details);
  out.set('notes.said', x.notes.said);
  out.set('alert', (r as unknown as { alert: string }).alert);
  return out;
}

test('every character the rules alone mask is masked with the tagger on, in every field of a record', () => {
  const corpus = generate('dev', { pii: 160, noPii: 40, seed: 16, fresh: true });
  let masked = 0;
  for (let i = 0; i < corpus.length; i += 4) {
    const input = record(corpus.slice(i, i + 4));
    const before = texts(input);
    const alone = texts(redact(input, false));
    const merged = texts(redact(input, true));
    for (const [where, text] of before) {
      const a = alone.get(where)!;
      const m = merged.get(where)!;
      assert.equal(a.length, text.length, `${where}: a character mask keeps the length`);
      assert.equal(m.length, text.length, `${where}: a character mask keeps the length`);
      for (let c = 0; c < text.length; c++) {
        if (a[c] !== '*' || text[c] === '*') continue;
        masked++;
        assert.equal(m[c], '*', `${where} @${c}: the rules mask "${text}" as "${a}", with the tagger "${m}"`);
      }
    }
  }
  assert.ok(masked > 1000, `the rules masked ${masked} characters`);
});
