// A conversation record's own rules (redactionTypes[].rules, contentGroups[].contentItems): literal and regex
// values in written and spoken form, redactLine, redactBefore/redactAfter, confidence floors, allow-list
// (ignore) values beating recognizers, inactive items doing nothing, and the precedence between sources.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Masker } from '../../src/redact/masks.js';
import { recordRules, type RecordInput } from '../../src/redact/recordRules.js';
import { redactRecord } from '../../src/redact/redactRecord.js';
import { redactText, wordSpans } from '../../src/redact/redactText.js';
import { type RedactionRule } from '../../src/redact/rules.js';
import type { EventRecord } from '../../src/schema/resources/eventRecord.js';

const PERSON: RedactionRule = { kind: 'Person', maskType: 'Placeholder', setting: '[PERSON]' };
const rulesOf = (rules: object[], extra: RecordInput = {}) => recordRules({ redactionTypes: [{ name: 'custom', rules }], ...extra });
const text = (input: string, record: RecordInput, project: RedactionRule[] = []) => redactText(input, project, new Masker('k'), recordRules(record)).text;
const custom = (input: string, rules: object[], project: RedactionRule[] = []) => text(input, { redactionTypes: [{ rules }] }, project);
/** The words left after masking a word list (each span becomes one "#"). */
function words(input: string, rules: object[], project: RedactionRule[] = [], record: RecordInput = {}): string {
  const list = input.split(' ');
  const spans = wordSpans(list, project, rulesOf(rules, record));
  const out: string[] = [];
  let next = 0;
  for (const s of spans) {
    out.push(...list.slice(next, s.wordStart), '#');
    next = s.wordEnd;
  }
  return [...out, ...list.slice(next)].join(' ');
}

describe('literal values', () => {
  const rule = { value: 'Project Bluebird', type: 'Custom' };
  test('written: case-insensitive, on word boundaries, punctuation kept around', () => {
    assert.equal(custom('Ask about PROJECT bluebird, please.', [rule]), 'Ask about [CUSTOM], please.');
    assert.equal(custom('project bluebirds are not it', [rule]), 'project bluebirds are not it');
  });
  test('spoken: ASR words match the written value', () => {
    assert.equal(words('ask about project bluebird please', [rule]), 'ask about # please');
  });
  test('numbers match in any form: written digits, split digits, spoken digits', () => {
    const acct = { value: 'ACCT-4471', type: 'AccountCode', setting: '[ACCOUNT]' };
    assert.equal(custom('use acct 4471 today', [acct]), 'use [ACCOUNT] today');
    assert.equal(custom('use ACCT-44 71 today', [acct]), 'use [ACCOUNT] today');
    assert.equal(words('use acct four four seven one today', [acct]), 'use # today');
    // A longer number is another number.
    assert.equal(words('use acct four four seven one two today', [acct]), 'use acct four four seven one two today');
  });
  test('type names the reported kind and the mask; a built-in kind keeps its own mask', () => {
    assert.equal(custom('call Bluebird now', [{ value: 'bluebird', type: 'Codename', maskType: 'MaskCharacter', setting: 'x' }]), 'call xxxxxxxx now');
    assert.equal(custom('call Bluebird now', [{ value: 'bluebird', type: 'person' }], [{ ...PERSON, setting: '[NAME]' }]), 'call [NAME] now');
    const { found } = redactText('call Bluebird now', [], new Masker('k'), rulesOf([{ value: 'bluebird' }]));
    assert.deepEqual(found.map((f) => [f.rule.kind, f.replacement]), [['Custom', '[CUSTOM]']]);
  });
});

describe('regular expressions', () => {
  test('/source/flags, written and spoken', () => {
    const rule = { value: '/\\bzx[- ]?\\d{4}\\b/i', type: 'Ticket' };
    assert.equal(custom('code ZX-9931 ok', [rule]), 'code [TICKET] ok');
    assert.equal(words('code zx nine nine three one ok', [rule]), 'code # ok');
    assert.equal(custom('code ZX-99 ok', [rule]), 'code ZX-99 ok');
  });
  test('typeId "regex" marks a bare pattern (case-insensitive); the kind is Custom', () => {
    const rule = { value: 'order \\d{6}', typeId: 'regex' };
    assert.equal(words('my order one two three four five six thanks', [rule]), 'my # thanks');
    assert.equal(custom('My ORDER 123456, thanks', [rule]), 'My [CUSTOM], thanks');
  });
  test('a pattern that does not compile is skipped, not fatal', () => {
    assert.equal(custom('a (b c', [{ value: '/(b/' }, { value: 'c' }]), 'a (b [CUSTOM]');
  });
  test('a pattern matching every word of a long text finds each word once, in order', () => {
    // 12,000 matches: the quadratic search this replaced took seconds here (speed is not asserted in tests).
    const list = Array.from({ length: 12_000 }, (_, i) => `w${i % 50}`);
    const spans = wordSpans(list, [], rulesOf([{ value: '/\\w+/', type: 'Token' }]));
    assert.equal(spans.length, list.length);
    assert.ok(spans.every((s, i) => s.wordStart === i && s.wordEnd === i + 1));
  });
});

describe('context: redactLine, redactBefore, redactAfter', () => {
  test('redactAfter hides the PIN whatever its form, and no more', () => {
    const rule = { value: 'my pin is', redactAfter: 4 };
    assert.equal(words('yes my pin is four four seven one thanks', [rule]), 'yes # thanks');
    assert.equal(custom('yes my pin is 4471 so ok bye now', [rule]), 'yes [CUSTOM] now');
  });
  test('redactBefore takes the words before, within the line', () => {
    assert.equal(custom('the code word is bluebird ok', [{ value: 'bluebird', redactBefore: 2 }]), 'the code [CUSTOM] ok');
    assert.equal(custom('bluebird ok', [{ value: 'bluebird', redactBefore: 5 }]), '[CUSTOM] ok');
  });
  test('redactLine hides the whole utterance', () => {
    assert.equal(custom('I want to cancel my account today.', [{ value: 'cancel my account', redactLine: true }]), '[CUSTOM].');
    assert.equal(words('i want to cancel my account today', [{ value: 'cancel my account', redactLine: true }]), '#');
  });
  test('json-v2 lines end at is_eos; context does not cross them', () => {
    const results = 'hello there . my pin is one two three four . goodbye now'.split(' ').map((content, i) => ({
      type: content === '.' ? 'punctuation' : 'word',
      ...(content === '.' && { is_eos: true }),
      start_time: i,
      end_time: i + 0.5,
      channel: 'S1',
      alternatives: [{ content, confidence: 0.9 }],
    }));
    const record = {
      processJob: { transcript: { results } },
      redactionTypes: [{ rules: [{ value: 'my pin is', redactLine: true }, { value: 'goodbye', redactBefore: 10 }] }],
    } as unknown as EventRecord;
    const out = redactRecord(record, [], new Masker('k'), recordRules(record)).record;
    const contents = (out.processJob!.transcript!.results as { alternatives: { content: string }[] }[]).map((r) => r.alternatives[0].content);
    assert.deepEqual(contents, ['hello', 'there', '.', '[CUSTOM]', '.', '[CUSTOM]', 'now']);
  });
});

describe('confidence floor of a built-in kind', () => {
  const sentence = 'Hello, Victoria Bank here. My name is Jane Doe.';
  test('an empty-value rule switches the kind on with its mask', () => {
    assert.equal(text(sentence, { redactionTypes: [{ rules: [{ type: 'Person', maskType: 'EntityIndex' }] }] }), 'Hello, [PERSON_1] here. My name is [PERSON_2].');
  });
  test('detections below the floor are left; 80 reads as 0.8', () => {
    for (const confidence of [0.8, 80]) {
      assert.equal(text(sentence, { redactionTypes: [{ rules: [{ type: 'Person', confidence }] }] }), 'Hello, Victoria Bank here. My name is [PERSON].');
    }
  });
  test('the record rule beats the project rule of the same kind (mask and floor)', () => {
    const record = { redactionTypes: [{ rules: [{ type: 'Person', confidence: 0.8, maskType: 'Placeholder', setting: '[CALLER]' }] }] };
    assert.equal(text(sentence, record, [PERSON]), 'Hello, Victoria Bank here. My name is [CALLER].');
    assert.equal(text(sentence, {}, [PERSON]), 'Hello, [PERSON] here. My name is [PERSON].');
  });
});

describe('contentGroups', () => {
  const group = (items: object[], extra: object = {}) => ({ contentGroups: [{ name: 'g', ...extra, contentItems: items }] });
  test('an ignore item beats a recognizer, written and spoken; other values are still found', () => {
    const record = group([{ value: 'Victoria Bank', ignore: true }]);
    assert.equal(text('Hello, Victoria Bank here. My name is Jane Doe.', record, [PERSON]), 'Hello, Victoria Bank here. My name is [PERSON].');
    assert.equal(text('Hello, Victoria Bank here.', {}, [PERSON]), 'Hello, [PERSON] here.');
    const spoken = 'this is acme calling'.split(' ');
    assert.equal(wordSpans(spoken, [PERSON]).length, 1);
    assert.equal(wordSpans(spoken, [PERSON], recordRules(group([{ value: 'ACME', ignore: true }]))).length, 0);
  });
  test('an ignore item beats the record rules too, and its words are cut out of wider spans', () => {
    assert.equal(text('we are acme', { ...group([{ value: 'acme', ignore: true }]), redactionTypes: [{ rules: [{ value: 'acme', redactBefore: 2 }] }] }), 'we are acme');
    assert.equal(
      text('at acme my pin is 1234 ok', { ...group([{ value: 'acme', ignore: true }]), redactionTypes: [{ rules: [{ value: 'my pin is', redactBefore: 2, redactAfter: 1 }] }] }),
      '[CUSTOM] acme [CUSTOM] ok',
    );
  });
  test('analytics phrases (typeName phrase, keyword, topic, ...) are content for insights, not values to hide', () => {
    const phrases = group([{ value: 'debit card', typeName: 'phrase' }, { value: 'refund', typeName: 'Keyword' }]);
    assert.equal(text('i lost my debit card and want a refund', phrases), 'i lost my debit card and want a refund');
    // ... and they stay as sent in the stored record's contentGroups, while a value item there is masked.
    const input = { ...group([...phrases.contentGroups[0].contentItems, { value: 'bluebird', typeName: 'Codename' }]), utterances: [{ text: 'a refund for bluebird' }] };
    const { record } = redactRecord(input as unknown as EventRecord, [], new Masker('k'), recordRules(input));
    assert.deepEqual(((record as RecordInput).contentGroups![0].contentItems ?? []).map((i) => i.value), ['debit card', 'refund', '[CODENAME]']);
    assert.equal((record as { utterances: { text: string }[] }).utterances[0].text, 'a refund for [CODENAME]');
  });

  test('an item without ignore is always redacted, as its typeName or Custom', () => {
    assert.equal(text('about Bluebird and Kestrel', group([{ value: 'bluebird', typeName: 'Codename' }, { value: 'kestrel' }])), 'about [CODENAME] and [CUSTOM]');
  });
  test('inactive or deleted groups and items do nothing', () => {
    const input = 'about Bluebird';
    for (const record of [
      group([{ value: 'bluebird', active: false }]),
      group([{ value: 'bluebird', isDeleted: true }]),
      group([{ value: 'bluebird' }], { active: false }),
      group([{ value: 'bluebird' }], { isDeleted: true }),
    ]) {
      assert.equal(text(input, record), input);
    }
    // An inactive ignore item does not protect anything.
    assert.equal(text('this is Acme calling', group([{ value: 'acme', ignore: true, active: false }]), [PERSON]), 'this is [PERSON] calling');
  });
});

describe('inactive rules', () => {
  test('inactive, deleted, or in an inactive redactionType: nothing is redacted', () => {
    const rule = { value: 'bluebird' };
    for (const record of [
      { redactionTypes: [{ rules: [{ ...rule, active: false }] }] },
      { redactionTypes: [{ rules: [{ ...rule, isDeleted: true }] }] },
      { redactionTypes: [{ active: false, rules: [rule] }] },
      { redactionTypes: [{ isDeleted: true, rules: [rule] }] },
    ]) {
      assert.deepEqual(recordRules(record), { phrases: [], kinds: [], ignore: [] });
      assert.equal(text('about Bluebird', record), 'about Bluebird');
    }
  });
  test('an inactive record rule does not switch off a project kind', () => {
    assert.equal(text('My name is Jane Doe.', { redactionTypes: [{ rules: [{ type: 'Person', active: false }] }] }, [PERSON]), 'My name is [PERSON].');
  });
});
