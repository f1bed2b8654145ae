// What the post-call speed work (issue 23) keeps exactly: a record redactor finds the spans of a repeated string
// once, but every occurrence is still masked and counted where it stands (entity per occurrence, EntityIndex
// numbers shared by the same value, Hash tokens equal); compromise reads a repeated utterance once, but each of
// its lines lists its organizations; and the schema walk, which no longer spells a JSON pointer per field, still
// names where a record is nested too deeply.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { organizations } from '../../src/conversation/entities.js';
import type { Conversation } from '../../src/conversation/types.js';
import { ServiceError } from '../../src/errors.js';
import { Masker } from '../../src/redact/masks.js';
import { recordRules } from '../../src/redact/recordRules.js';
import { redactRecord } from '../../src/redact/redactRecord.js';
import type { RedactionRule } from '../../src/redact/rules.js';
import type { EventRecord } from '../../src/schema/resources/eventRecord.js';

const PHONE: RedactionRule = { kind: 'PhoneNumber', maskType: 'EntityIndex', setting: '[PHONE]' };
const PERSON: RedactionRule = { kind: 'Person', maskType: 'EntityIndex', setting: '[PERSON]' };

test('a string repeated across fields is masked and counted at every occurrence, with the same index', () => {
  const said = 'call me on 555-867-5309';
  const other = 'or 555-123-4567 after six';
  const record = { eventId: 'r', custom0: said, custom1: said, message: other, details: said, extra: { a: said, b: [said, other] } } as unknown as EventRecord;
  const { record: out, entities } = redactRecord(record, [PHONE], new Masker('k'));
  const o = out as unknown as Record<string, unknown>;
  for (const v of [o.custom0, o.custom1, o.details, (o.extra as { a: string }).a, (o.extra as { b: string[] }).b[0]]) assert.equal(v, 'call me on [PHONE_1]');
  assert.equal(o.message, 'or [PHONE_2] after six');
  assert.equal((o.extra as { b: string[] }).b[1], 'or [PHONE_2] after six');
  // One entity per occurrence: five of the first number, two of the second.
  assert.deepEqual(
    entities.map((e) => e.text).sort(),
    [...Array(5).fill('[PHONE_1]'), ...Array(2).fill('[PHONE_2]')].sort(),
  );
});

test('a repeated string is searched with the values found elsewhere in the record, in every occurrence', () => {
  // "Zebulon Quartermaine" is found after the cue in the utterance; the same name alone in two other fields is
  // masked there too (propagation), however often the field repeats.
  const record = {
    eventId: 'r',
    utterances: [{ speaker: 1, text: 'Hello, my name is Zebulon Quartermaine.' }],
    custom0: 'zebulon quartermaine',
    custom1: 'zebulon quartermaine',
    contentGroups: [{ contentItems: [{ value: 'card services', typeName: 'Custom' }] }],
    message: 'card services called zebulon quartermaine',
    details: 'card services called zebulon quartermaine',
  } as unknown as EventRecord;
  const { record: out } = redactRecord(record, [PERSON], new Masker('k'), recordRules(record as never));
  const o = out as unknown as Record<string, string>;
  assert.equal(o.custom0, '[PERSON_1]');
  assert.equal(o.custom1, '[PERSON_1]');
  assert.doesNotMatch(o.message, /zebulon|quartermaine|card services/i);
  assert.equal(o.message, o.details);
});

test('organizations: a line said twice lists its organizations on each line', () => {
  const line = (n: number) => ({ line: n, speaker: n % 2, channel: n % 2, start: n, end: n + 1, text: 'Thank you for calling Northwind Bank today, how can I help?', words: [] });
  const conversation = { source: 'utterances', utterances: [line(0), line(1), line(2)] } as unknown as Conversation;
  const found = organizations(conversation);
  assert.ok(found.length >= 3, JSON.stringify(found));
  assert.deepEqual([...new Set(found.map((e) => e.line))], [0, 1, 2]);
  for (const n of [0, 1, 2]) assert.deepEqual(found.filter((e) => e.line === n).map(({ line: _l, speaker: _s, ...e }) => e), found.filter((e) => e.line === 0).map(({ line: _l, speaker: _s, ...e }) => e));
});

test('a record nested too deeply is refused naming where (the walk spells the pointer only then)', () => {
  let value: unknown = 'call 555-867-5309';
  for (let i = 0; i < 70; i++) value = i % 2 ? [value] : { k: value };
  assert.throws(
    () => redactRecord({ eventId: 'deep', extra: value } as unknown as EventRecord, [PHONE], new Masker('k')),
    (error: unknown) => {
      assert.ok(error instanceof ServiceError);
      const pointer = `/extra${'/0/k'.repeat(32)}`;
      assert.match(error.message, /nested more than 64 levels deep/);
      assert.deepEqual(((error as unknown as { issues?: { pointer: string; path: string }[] }).issues ?? [])[0], {
        pointer,
        path: pointer.slice(1).replace(/\//g, '.'),
        message: 'nested more than 64 levels deep',
      });
      return true;
    },
  );
  // The same nesting as JSON text inside a field is searched as plain text instead, from the embedded value's
  // own root: the number is masked, and a later field is walked as before.
  const { record } = redactRecord({ eventId: 'deep', message: JSON.stringify(value), details: 'call 555-867-5309' } as unknown as EventRecord, [PHONE], new Masker('k'));
  const o = record as unknown as Record<string, string>;
  assert.doesNotMatch(o.message, /867/);
  assert.equal(o.details, 'call [PHONE_1]');
});

test('a record handed over (a worker\'s own copy) is redacted in place to the same answer; otherwise it is left as sent', () => {
  const make = () =>
    ({
      eventId: 'owned',
      utterances: [{ speaker: 1, text: 'My name is Zebulon Quartermaine, call 555-867-5309.' }],
      custom0: 'zebulon quartermaine',
      vendorATranscript: { utterances: [{ metadata: { channel: 1 }, events: 'my name is zebulon quartermaine'.split(' ').map((word, i) => ({ word, start: i, end: i + 0.5 })) }] },
    }) as unknown as EventRecord;
  const input = make();
  const copied = redactRecord(input, [PERSON, PHONE], new Masker('k'));
  assert.deepEqual(input, make());
  const owned = make();
  const inPlace = redactRecord(owned, [PERSON, PHONE], new Masker('k'), undefined, true);
  assert.deepEqual(inPlace, copied);
  assert.equal(inPlace.record, owned);
  assert.doesNotMatch(JSON.stringify(inPlace.record), /zebulon|quartermaine|867/i);
});
