// A rule's kind wins where the tagger's run overlaps a number or code found by a rule (issue 16): the run gives
// up the rule's words, and what is left stands only if it is still evidence of its kind. "ssn 123-45-6789" was
// tagged as an Address over the SSN; an address run reaching into the phone number after it, merged with the
// rules' address, took the number's label. Names and places are shared with the rules as before.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detectAll, detectText, detectWords } from '../../src/redact/detect.js';
import { docFromText } from '../../src/redact/recognizers/doc.js';
import { yieldToRules } from '../../src/redact/recognizers/tagger.js';

const ON = { tagger: true } as const;
const kinds = (ds: { kind: string; text: string }[]) => ds.map((d) => `${d.kind}: ${d.text}`);

test('a tagged run over an SSN gives the number up to the rule (the case this guards)', () => {
  // The model that took "ssn 123-45-6789" for an address no longer does (retrained on richer talk), so the run it
  // made is built here: an additive Address over "ssn 123-45-6789", beside the rule's SSN.
  const doc = docFromText('caller zebulon quackenbush ssn 123-45-6789', ON);
  const rules = detectAll(docFromText('caller zebulon quackenbush ssn 123-45-6789', { tagger: false }));
  const start = doc.text.indexOf('ssn');
  const run = { kind: 'Address' as const, text: doc.text.slice(start), start, end: doc.text.length, confidence: 0.4, recognizer: 'tagger', additive: true, wordStart: 3, wordEnd: 5 };
  const out = yieldToRules(doc, [...rules, run]);
  assert.ok(!out.some((d) => d.recognizer === 'tagger' && d.kind === 'Address'), JSON.stringify(kinds(out)));
  assert.ok(out.some((d) => d.kind === 'USSocialSecurityNumber' && d.text === '123-45-6789'), JSON.stringify(kinds(out)));
});

test('over an SSN the rule names it, and "ssn" left alone is no address; the name stays', () => {
  const text = 'caller zebulon quackenbush ssn 123-45-6789';
  const all = detectAll(docFromText(text, ON));
  assert.ok(!all.some((d) => d.recognizer === 'tagger' && d.kind === 'Address'), JSON.stringify(kinds(all)));
  const found = detectText(text, ON);
  assert.ok(found.some((d) => d.kind === 'Person' && d.text.includes('zebulon')) && found.some((d) => d.kind === 'Person' && d.text.includes('quackenbush')), JSON.stringify(kinds(found)));
  assert.ok(found.some((d) => d.kind === 'USSocialSecurityNumber' && d.text === '123-45-6789'), JSON.stringify(kinds(found)));
  assert.ok(!found.some((d) => d.kind === 'Address' || d.text.includes('ssn')), JSON.stringify(kinds(found)));
  const said = detectWords('caller zebulon quackenbush ssn one two three four five six seven eight nine'.split(' '), ON);
  assert.ok(!said.some((d) => d.kind === 'Address'), JSON.stringify(kinds(said)));
  assert.ok(said.some((d) => d.kind === 'USSocialSecurityNumber' && d.text === 'one two three four five six seven eight nine'), JSON.stringify(kinds(said)));
});

test('an address run that reaches into a phone number leaves the number its own kind', () => {
  const text = 'Taylor Barabás\nAreavibes Inc\n27 2279 President St\nGleniti\n, nan\n Canada 32586\nMobile: 041-412-293\nDesk: 986.291.2294x751';
  const found = detectText(text, ON);
  assert.ok(found.some((d) => d.kind === 'PhoneNumber' && d.text === '041-412-293'), JSON.stringify(kinds(found)));
  assert.ok(!found.some((d) => d.kind === 'Address' && /\d{3}-\d{3}/.test(d.text)), JSON.stringify(kinds(found)));
});

test('what is left of a run beside a rule detection stays when it is still an address', () => {
  // the street before a phone number
  const found = detectText('Ship it to 4417 Adebayo Crescent, Lekki 555-867-5309 please', ON);
  assert.ok(found.some((d) => d.kind === 'Address' && d.text.includes('Adebayo Crescent')), JSON.stringify(kinds(found)));
  assert.ok(found.some((d) => d.kind === 'PhoneNumber' && d.text === '555-867-5309'), JSON.stringify(kinds(found)));
  // a ZIP code is part of an address: the run keeps it
  const zip = detectText('I moved, the new address is 4417 Adebayo Crescent, Lekki 90210.', ON);
  assert.ok(zip.some((d) => d.kind === 'Address' && d.text.includes('Adebayo') && d.text.includes('90210')), JSON.stringify(kinds(zip)));
});
