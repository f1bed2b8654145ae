// redactRecord on its own: a value across utterances under each mask type, classes of undeclared and
// embedded data, and a record too deeply nested to walk refused with a 400 rather than half read.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ServiceError } from '../../src/errors.js';
import { RECOGNIZERS } from '../../src/redact/detect.js';
import { Masker } from '../../src/redact/masks.js';
import { redactRecord } from '../../src/redact/redactRecord.js';
import type { RedactionRule } from '../../src/redact/rules.js';
import type { EventRecord } from '../../src/schema/resources/eventRecord.js';

const CARD: RedactionRule = { kind: 'CreditCardNumber', maskType: 'Placeholder', setting: '[CARD]' };
const events = (text: string, start: number) => text.split(' ').map((word, i) => ({ word, start: start + i, end: start + i + 0.5, confidence: 0.9 }));
const vendor = {
  vendorBTranscript: {
    utterances: [
      { start: 0, metadata: { channel: 0 }, events: events('my card is four one one one', 0) },
      { start: 10, metadata: { channel: 0 }, events: events('one one one one one one one one one one one one ok', 10) },
    ],
  },
} as unknown as EventRecord;
const said = (record: EventRecord) =>
  (record.vendorBTranscript!.utterances as { events: { word: string }[] }[]).map((u) => u.events.map((e) => e.word).join(' '));

describe('a value across utterances, by mask type', () => {
  test('Placeholder and EntityIndex: the same token in each part, one entity', () => {
    const placeholder = redactRecord(vendor, [CARD], new Masker('k'));
    assert.deepEqual(said(placeholder.record), ['my card is [CARD]', '[CARD] ok']);
    assert.equal(placeholder.entities.length, 1);
    assert.equal(placeholder.entities[0].line, 0);
    const indexed = redactRecord(vendor, [{ ...CARD, maskType: 'EntityIndex', setting: 'CARD' }], new Masker('k'));
    assert.deepEqual(said(indexed.record), ['my card is [CARD_1]', '[CARD_1] ok']);
  });
  test('MaskCharacter covers each part\'s own characters; Remove drops the words of both', () => {
    const stars = redactRecord(vendor, [{ ...CARD, maskType: 'MaskCharacter', setting: '#' }], new Masker('k'));
    assert.deepEqual(said(stars.record), ['my card is #### ### ### ###', `${'### '.repeat(12)}ok`]);
    const removed = redactRecord(vendor, [{ ...CARD, maskType: 'Remove', setting: '' }], new Masker('k'));
    assert.deepEqual(said(removed.record), ['my card is', 'ok']);
  });
  test('the input record is left as it was', () => {
    const before = JSON.stringify(vendor);
    redactRecord(vendor, [CARD], new Masker('k'));
    assert.equal(JSON.stringify(vendor), before);
  });
});

describe('classes', () => {
  const SSN: RedactionRule = { kind: 'USSocialSecurityNumber', maskType: 'Placeholder', setting: '[SSN]' };
  test('undeclared data is content at any depth; numbers and booleans are left, but an integer of a value\'s length', () => {
    const input = {
      eventId: '123-45-6789',
      conversation: { duration: 123456789 },
      analytics: { insights: [{ value: 123456789 }] }, // Type.Unknown: declares nothing
      extra: [{ a: { b: ['ssn 123-45-6789', 123456789, 1234, false] } }],
    } as unknown as EventRecord;
    const out = redactRecord(input, [SSN], new Masker('k')).record as unknown as { eventId: string; conversation: object; analytics: object; extra: unknown };
    assert.deepEqual(out.analytics, { insights: [{ value: '[SSN]' }] });
    // eventId is an identifier: left even when it looks like a value; a declared number is left.
    assert.equal(out.eventId, '123-45-6789');
    assert.deepEqual(out.conversation, { duration: 123456789 });
    assert.deepEqual(out.extra, [{ a: { b: ['ssn [SSN]', '[SSN]', 1234, false] } }]);
  });
  test('JSON text keeps its shape; only changed JSON is written back', () => {
    const out = redactRecord({ json: '{ "a": ["ssn 123-45-6789", 1] }', details: '{ "plain": true }' } as EventRecord, [SSN], new Masker('k')).record;
    assert.deepEqual(JSON.parse(out.json!), { a: ['ssn [SSN]', 1] });
    assert.equal(out.details, '{ "plain": true }');
  });
  test('credentials are left to the credential sealing, wherever they are', () => {
    const input = { campaign: { appSecret: '123-45-6789' }, extra: { token: '123-45-6789' } } as unknown as EventRecord;
    const out = redactRecord(input, [SSN], new Masker('k')).record as unknown as { campaign: { appSecret: string }; extra: { token: string } };
    assert.deepEqual([out.campaign.appSecret, out.extra.token], ['123-45-6789', '123-45-6789']);
  });
  test('a record nested too deeply to walk is refused (invalid: a 400), not half redacted', () => {
    let deep: unknown = 'ssn 123-45-6789';
    for (let i = 0; i < 100; i++) deep = { d: deep };
    assert.throws(
      () => redactRecord({ extra: deep } as unknown as EventRecord, [SSN], new Masker('k')),
      (e: unknown) => e instanceof ServiceError && e.kind === 'invalid' && e.issues[0].pointer.startsWith('/extra/d/d/'),
    );
    // The same depth inside JSON text is searched as plain text instead.
    const out = redactRecord({ json: JSON.stringify(deep) } as EventRecord, [SSN], new Masker('k')).record;
    assert.ok(!out.json!.includes('6789'), out.json);
  });
});

describe('a value found once is masked wherever else it appears', () => {
  const PERSON: RedactionRule = { kind: 'Person', maskType: 'Placeholder', setting: '[PERSON]' };
  const SSN: RedactionRule = { kind: 'USSocialSecurityNumber', maskType: 'Placeholder', setting: '[SSN]' };
  const input = {
    utterances: [
      { speaker: 2, text: 'Zbigniew Quistorff here, ssn 123-45-6789' },
      { speaker: 1, text: 'Hello, my name is Zbigniew Quistorff.' },
    ],
    conversation: { name: 'Zbigniew Quistorff' },
    insightLines: [{ value: 'spoke with zbigniew quistorff today' }],
    crm: { said: 'my social is one two three four five six seven eight nine' },
  } as unknown as EventRecord;

  test('alone, the rules do not find the name; found elsewhere, it is masked there too', () => {
    // The rules alone: the tagger may take an unknown name even where it stands alone.
    const tagger = RECOGNIZERS.find((r) => r.name === 'tagger')!;
    const run = tagger.run;
    tagger.run = () => [];
    try {
      const alone = redactRecord({ conversation: { name: 'Zbigniew Quistorff' } } as EventRecord, [PERSON], new Masker('k')).record;
      assert.equal(alone.conversation!.name, 'Zbigniew Quistorff');
      assert.equal(redactRecord(input, [PERSON, SSN], new Masker('k')).record.conversation!.name, '[PERSON]');
    } finally {
      tagger.run = run;
    }
  });

  test('in every field and utterance, written or said; entities still point at their masks', () => {
    const { record, entities } = redactRecord(input, [PERSON, SSN], new Masker('k'));
    const out = record as unknown as typeof input & { crm: { said: string } };
    assert.deepEqual(out.utterances!.map((u) => u.text), ['[PERSON] here, ssn [SSN]', 'Hello, my name is [PERSON].']);
    assert.equal(out.conversation!.name, '[PERSON]');
    assert.equal(out.insightLines![0].value, 'spoke with [PERSON] today');
    assert.equal(out.crm.said, 'my social is [SSN]');
    const placed = entities.filter((e) => e.line !== undefined && e.offset !== undefined);
    assert.ok(placed.length >= 3, JSON.stringify(entities));
    for (const e of placed) assert.equal(out.utterances![e.line!].text!.slice(e.offset, e.offset! + e.length!), e.text);
  });

  test('short or unsure values are not spread', () => {
    const { record } = redactRecord(
      { utterances: [{ text: 'my cvv is 123' }], details: 'order 123 shipped' } as EventRecord,
      [{ kind: 'CVV', maskType: 'Placeholder', setting: '[CVV]' }],
      new Masker('k'),
    );
    assert.equal(record.utterances![0].text, 'my cvv is [CVV]');
    assert.equal(record.details, 'order 123 shipped');
  });
});
