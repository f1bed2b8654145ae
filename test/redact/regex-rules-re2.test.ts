// Record regular-expression rules run on RE2 (linear time). What RE2 cannot run — backreferences, lookarounds —
// and what is no pattern at all is refused with the rule named and the reason; patterns that took the old
// engine exponential time are accepted and finish; matching keeps JavaScript's offsets (UTF-16) and flags.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Masker } from '../../src/redact/masks.js';
import { findPattern, MAX_REGEX_SOURCE, regexPattern, regexProblem } from '../../src/redact/patterns.js';
import { docFromText } from '../../src/redact/recognizers/doc.js';
import { recordRuleIssues, recordRules } from '../../src/redact/recordRules.js';
import { redactText } from '../../src/redact/redactText.js';

const withRule = (value: string, extra: object = {}) => ({ redactionTypes: [{ rules: [{ value: 'fine' }, { value, ...extra }] }] });
const redacted = (text: string, value: string, extra: object = {}) => redactText(text, [], new Masker('k'), recordRules(withRule(value, extra))).text;

describe('refused: what RE2 cannot run in linear time, and what is no pattern', () => {
  for (const [value, why] of [
    ['/(a)\\1/', /RE2.*invalid escape sequence: \\1.*backreferences/],
    ['/(?<x>a)\\k<x>/', /RE2.*backreferences/],
    ['/card(?=\\d)/', /RE2.*invalid perl operator: \(\?=.*lookahead and lookbehind/],
    ['/(?<!no )card/', /RE2.*\(\?<!.*lookahead and lookbehind/],
    ['/(unclosed/', /not a valid regular expression for RE2.*missing \)/],
    ['/a{5000}/', /invalid repetition size/],
    ['/card/x', /unknown flags "x"/],
    [`/${'a'.repeat(MAX_REGEX_SOURCE + 1)}/`, /longer than 500 characters/],
  ] as const) {
    test(`${value.slice(0, 40)} is refused, naming the rule`, () => {
      const issues = recordRuleIssues(withRule(value));
      assert.equal(issues.length, 1, JSON.stringify(issues));
      assert.equal(issues[0].pointer, '/redactionTypes/0/rules/1/value');
      assert.match(issues[0].message, why);
      // And it matches nothing if it is reached some other way: never a silent half-rule.
      assert.equal(regexPattern(value.slice(1, value.lastIndexOf('/')), value.slice(value.lastIndexOf('/') + 1)), undefined);
    });
  }
  test('a bare pattern (typeId regex) is checked the same way', () => {
    const issues = recordRuleIssues(withRule('(?=x)y', { typeId: 'regex' }));
    assert.match(issues[0]?.message ?? '', /lookahead/);
  });
});

describe('accepted: patterns that took the old engine exponential time run in linear time', () => {
  // Each against the input that made backtracking explode: a long run the pattern almost matches.
  for (const [value, run, masked] of [
    ['/(a|a)*$/', 'a', true],
    ['/(a+)+$/', 'a', true],
    ['/(x*)*y/', 'x', false],
    ['/(\\w+\\s?)*$/', 'w', true],
  ] as const) {
    test(`${value} is accepted and finishes over 200,000 characters`, () => {
      assert.deepEqual(recordRuleIssues(withRule(value)), []);
      const text = `${run.repeat(200_000)}!`;
      // Completing at all is the point (the old engine never returned); no time is asserted.
      assert.equal(redacted(text, value, { type: 'Run' }), masked ? '[RUN]!' : text);
    });
  }
  test('/(a|a)*$/ masks the run of a and keeps the "!"', () => {
    assert.equal(redacted(`${'a'.repeat(5001)}!`, '/(a|a)*$/', { type: 'Run' }), '[RUN]!');
  });
});

describe('matching keeps JavaScript behaviour', () => {
  test('a compiled pattern is reusable: matching twice finds the same ranges (no lastIndex left behind)', () => {
    const pattern = regexPattern('\\d{4}', '')!;
    const doc = docFromText('pin 4471 and 9931 done');
    const first = findPattern(doc, pattern);
    assert.deepEqual(first.length, 2);
    assert.deepEqual(findPattern(doc, pattern), first);
    assert.equal((pattern as { regex: { lastIndex: number } }).regex.lastIndex, 0);
  });
  test('offsets are UTF-16 (text after an emoji is masked in place); i folds non-ASCII letters', () => {
    assert.equal(redacted('😀 ZOË pays 😀 zoë', '/zoë/i', { type: 'Name' }), '😀 [NAME] pays 😀 [NAME]');
  });
  test('u, s and m flags are accepted; \\p{L} classes work', () => {
    assert.equal(redacted('ticket ÅB-12 ok', '/\\p{L}+-\\d+/u', { type: 'Ticket' }), 'ticket [TICKET] ok');
    assert.equal(regexProblem('^a.b$', 'ms'), undefined);
  });
  test('spoken numbers still match a digit pattern', () => {
    assert.equal(redacted('my pin is four four seven one ok', '/\\b\\d{4}\\b/', { type: 'Pin' }), 'my pin is [PIN] ok');
  });
});
