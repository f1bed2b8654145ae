// Issue #32, round 3: names in frames the third round of hand-written turns showed unread, each written and said
// (ASR form: lower case, no punctuation). Names here are made up.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { said, written, shown, type Found } from '../helpers/detections.js';


/** Every `value` is covered by a Person detection. */
function expectPersons(text: string, values: string[], detect: (s: string) => Found): void {
  const found = detect(text);
  for (const v of values) assert.ok(found.some((d) => d.kind === 'Person' && d.text.includes(v)), `${text}: expected Person "${v}", got ${shown(found)}`);
}
/** No Person detection at all. */
function expectNoPerson(text: string, detect: (s: string) => Found): void {
  assert.deepEqual(detect(text).filter((d) => d.kind === 'Person').map((d) => d.text), [], text);
}

test('a name given with "name was", and the other name offered after "or", are both masked', () => {
  expectPersons("The agent's name was Ottoline, I believe, or Otty, last Friday.", ['Ottoline', 'Otty'], written);
  expectPersons('the agents name was ottoline i believe or otty last friday', ['ottoline', 'otty'], said);
  expectPersons('His name was Brannagh or maybe Brannock.', ['Brannagh', 'Brannock'], written);
});

test('"the name was" followed by ordinary words masks nothing', () => {
  expectNoPerson('The name was spelled wrong on the letter, or so it seemed.', written);
  expectNoPerson('the name was spelled wrong on the letter or so it seemed', said);
});

test('a family named ("the Quarrington family") is masked; a family plan is no name', () => {
  expectPersons('The Quarrington family had this line before us.', ['Quarrington'], written);
  expectPersons('the quarrington family had this line before us', ['quarrington'], said);
  expectPersons('Is this still under the Van der Meulen household?', ['Meulen'], written);
  for (const t of ['We are on the Skybridge family plan.', 'The whole family uses it.', 'the entire family is on the account']) {
    expectNoPerson(t, t === t.toLowerCase() ? said : written);
  }
});

test('a name after an in-law relation is masked, with the hyphens written and as ASR splits them', () => {
  expectPersons('My sister-in-law, Ingeborg, pays the bill now.', ['Ingeborg'], written);
  expectPersons('my sister in law ingeborg pays the bill now', ['ingeborg'], said);
  expectPersons('our son in law tobiah handles it', ['tobiah'], said);
});

test('a name said right before a street address is a Person, the street from its number on an Address', () => {
  for (const [text, detect, name, street] of [
    ['Ysolde Achterberg, 318 Quince Street, 60614', written, 'Ysolde Achterberg', '318 Quince Street'],
    ['ysolde achterberg three one eight quince street six oh six one four', said, 'ysolde achterberg', 'three one eight quince street'],
  ] as const) {
    const found = detect(text);
    assert.ok(found.some((d) => d.kind === 'Person' && d.text === name), `${text}: ${shown(found)}`);
    assert.ok(found.some((d) => d.kind === 'Address' && d.text.startsWith(street)), `${text}: ${shown(found)}`);
  }
  // a house's name before the number is no person (its words stay masked, as part of the address)
  const found = said('deliver it to the old mill fourteen birch lane');
  assert.ok(!found.some((d) => d.kind === 'Person'), shown(found));
  assert.ok(found.some((d) => d.kind === 'Address' && d.text.includes('fourteen birch lane')), shown(found));
});
