// A value found once in a record is masked wherever else it appears (redactRecord's propagation), and it is
// looked for in the record as sent: where another finding (a record rule, the tagger) already masks part of an
// occurrence, the rest of that occurrence is masked too. Searching text an earlier pass had masked in part
// found nothing there, so adding a finding left the rest of a name in clear (issue 16: "zebulon [PERSON]"). And
// the value looked for is the rules' own: the tagger's wider run around it widens the mask there, not the value.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RECOGNIZERS } from '../../src/redact/detect.js';
import { Masker } from '../../src/redact/masks.js';
import { fromChars } from '../../src/redact/recognizers/doc.js';
import { recordRules } from '../../src/redact/recordRules.js';
import { redactRecord } from '../../src/redact/redactRecord.js';
import type { RedactionRule } from '../../src/redact/rules.js';
import type { EventRecord } from '../../src/schema/resources/eventRecord.js';

const PERSON: RedactionRule = { kind: 'Person', maskType: 'Placeholder', setting: '[PERSON]' };

/** A name given after a cue in an utterance, and written alone (no cue) in another field. */
const call = (extra: object = {}) =>
  ({ utterances: [{ speaker: 1, text: 'Hello, my name is Will Hunter.' }], details: 'will hunter called back', ...extra }) as unknown as EventRecord;

test('the rules alone mask the whole name in the other field', () => {
  assert.equal(redactRecord(call(), [PERSON], new Masker('k')).record.details, '[PERSON] called back');
});

test('a record rule that masks part of the name does not leave the rest of it in clear', () => {
  const input = call({ contentGroups: [{ name: 'surnames', contentItems: [{ value: 'hunter', typeName: 'Surname' }] }] });
  const { record } = redactRecord(input, [PERSON], new Masker('k'), recordRules(input as never));
  assert.doesNotMatch(record.details!, /will|hunter/i, record.details);
  assert.match(record.details!, /called back$/);
  assert.doesNotMatch(record.utterances![0].text!, /will|hunter/i);
});

test('a wider tagged run around a value the rules found does not change the value looked for elsewhere', () => {
  const tagger = RECOGNIZERS.find((r) => r.name === 'tagger')!;
  const run = tagger.run;
  // The tagger takes the word after the name too, where the rules found the name after its cue.
  tagger.run = (doc) => {
    const at = doc.text.indexOf('Will Hunter today');
    return at < 0 ? [] : [{ ...fromChars(doc, 'Person', at, at + 'Will Hunter today'.length, 0.4, 'tagger'), additive: true }];
  };
  try {
    const { record } = redactRecord(call({ utterances: [{ speaker: 1, text: 'Hello, my name is Will Hunter today.' }] }), [PERSON], new Masker('k'));
    assert.equal(record.utterances![0].text, 'Hello, my name is [PERSON].');
    assert.equal(record.details, '[PERSON] called back');
  } finally {
    tagger.run = run;
  }
});
