// Rules, masks and the redaction of a word-timed transcript: values replaced in the words, times kept as
// spans, no value left in what is returned.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Masker } from '../../src/redact/masks.js';
import { recordRules } from '../../src/redact/recordRules.js';
import { redactTranscript } from '../../src/redact/redactTranscript.js';
import { resolveRules } from '../../src/redact/policy.js';
import { defaultLabel } from '../../src/redact/rules.js';
import type { Transcript } from '../../src/transcript/types.js';

function transcriptOf(...channels: string[]): Transcript {
  return {
    model: 'test', engine: 'test', language: 'en-us', audioSeconds: 30, sourceSampleRate: 16000, processingSeconds: 0,
    channels: channels.map((text, channel) => ({
      channel,
      segments: [],
      words: text.split(' ').map((word, i) => ({ word, start: i, end: i + 0.8, confidence: 0.9 })),
    })),
  };
}

describe('redaction rules', () => {
  test('project rules first, request types add kinds (any spelling), an inactive rule no longer removes a named kind, real time keeps real_time rules', () => {
    const project = {
      sid: 'p',
      rules: [
        { name: 'Person', active: true, mask_type: 'EntityIndex' as const, setting: '[NAME]', real_time: true },
        { name: 'Email', active: false },
        { name: 'USSocialSecurityNumber', active: true, real_time: false },
      ],
    };
    const rules = resolveRules({ project, types: ['CreditCardNumber', 'email'] });
    assert.deepEqual(rules.map((r) => [r.kind, r.maskType, r.setting]), [
      ['Person', 'EntityIndex', '[NAME]'],
      ['USSocialSecurityNumber', 'Placeholder', '[US_SOCIAL_SECURITY_NUMBER]'],
      ['Email', 'Placeholder', '[EMAIL]'],
      ['CreditCardNumber', 'Placeholder', '[CREDIT_CARD_NUMBER]'],
    ]);
    assert.throws(() => resolveRules({ project, types: ['NotAKind'] }), /NotAKind/, 'an unknown kind is refused, never dropped');
    assert.deepEqual(resolveRules({ project, types: ['CreditCardNumber'], realTime: true }).map((r) => r.kind), ['Person', 'CreditCardNumber']);
    assert.equal(defaultLabel('IPAddress'), '[IP_ADDRESS]');
  });
});

describe('masks', () => {
  test('each mask type', () => {
    const m = new Masker('key');
    assert.equal(m.mask({ kind: 'Person', maskType: 'Placeholder', setting: '[PERSON]' }, 'john smith'), '[PERSON]');
    assert.equal(m.mask({ kind: 'Person', maskType: 'MaskCharacter', setting: '#' }, 'john'), '####');
    assert.equal(m.mask({ kind: 'Person', maskType: 'Remove', setting: '' }, 'john'), '');
    const index = { kind: 'Person' as const, maskType: 'EntityIndex' as const, setting: '[PERSON]' };
    assert.deepEqual([m.mask(index, 'John Smith'), m.mask(index, 'mary'), m.mask(index, 'john smith')], ['[PERSON_1]', '[PERSON_2]', '[PERSON_1]']);
    const hash = { kind: 'Person' as const, maskType: 'Hash' as const, setting: 'PERSON' };
    const h1 = m.mask(hash, 'john smith');
    assert.match(h1, /^\[PERSON:[0-9a-f]{12}\]$/);
    assert.equal(new Masker('key').mask(hash, 'John  Smith'), h1, 'stable across conversations with the same key');
    assert.notEqual(new Masker('other').mask(hash, 'john smith'), h1, 'keyed');
  });
});

describe('redactTranscript', () => {
  const rules = resolveRules({ types: ['Person', 'USSocialSecurityNumber', 'CreditCardNumber'] });

  test('values are replaced with their masks and their times become spans', () => {
    const t = transcriptOf('hi my name is john smith thanks', 'my social is one two three four five six seven eight nine nine ok');
    const { transcript, spans } = redactTranscript(t, rules, new Masker('k'));
    assert.equal(transcript.channels[0].words.map((w) => w.word).join(' '), 'hi my name is [PERSON] thanks');
    const person = transcript.channels[0].words[4];
    assert.deepEqual([person.start, person.end], [4, 5.8]);
    // The SSN and the overlapping digit-run detections merge into one span.
    assert.equal(transcript.channels[1].words.map((w) => w.word).join(' '), 'my social is [US_SOCIAL_SECURITY_NUMBER] ok');
    assert.deepEqual(spans.map((s) => [s.channel, s.kind, s.start, s.end]), [
      [1, 'USSocialSecurityNumber', 3, 12.8],
      [0, 'Person', 4, 5.8],
    ]);
    const all = JSON.stringify({ transcript, spans });
    for (const value of ['john', 'smith', 'one two three']) assert.ok(!all.includes(value), `${value} is gone`);
  });

  test('MaskCharacter keeps each word; Remove drops the words but keeps the span', () => {
    const t = transcriptOf('hi john smith bye');
    const masked = redactTranscript(t, [{ kind: 'Person', maskType: 'MaskCharacter', setting: '*' }], new Masker('k'));
    assert.equal(masked.transcript.channels[0].words.map((w) => w.word).join(' '), 'hi **** ***** bye');
    const removed = redactTranscript(t, [{ kind: 'Person', maskType: 'Remove', setting: '' }], new Masker('k'));
    assert.equal(removed.transcript.channels[0].words.map((w) => w.word).join(' '), 'hi bye');
    assert.deepEqual(removed.spans.map((s) => [s.start, s.end, s.replacement]), [[1, 2.8, '']]);
  });

  test('kinds without a rule are left alone', () => {
    const t = transcriptOf('hi john smith');
    const { transcript, spans } = redactTranscript(t, resolveRules({ types: ['Email'] }), new Masker('k'));
    assert.equal(transcript.channels[0].words.map((w) => w.word).join(' '), 'hi john smith');
    assert.deepEqual(spans, []);
  });

  test('kinds are restricted before overlaps: a job on SSN alone masks nine digits another kind would have named', () => {
    const t = transcriptOf('my account number is one two three four five six seven eight nine thanks');
    const { transcript, spans } = redactTranscript(t, resolveRules({ types: ['USSocialSecurityNumber'] }), new Masker('k'));
    assert.equal(transcript.channels[0].words.map((w) => w.word).join(' '), 'my account number is [US_SOCIAL_SECURITY_NUMBER] thanks');
    assert.deepEqual(spans.map((s) => [s.kind, s.start, s.end]), [['USSocialSecurityNumber', 4, 12.8]]);
  });

  test("the record's own rules apply to transcripts too", () => {
    const t = transcriptOf('the code word is bluebird ok');
    const custom = recordRules({ redactionTypes: [{ rules: [{ value: 'bluebird' }] }] });
    const { transcript } = redactTranscript(t, [], new Masker('k'), custom);
    assert.equal(transcript.channels[0].words.map((w) => w.word).join(' '), 'the code word is [CUSTOM] ok');
  });
});
