// Recall guard on the evaluation (eval/pii.ts): the digit kinds in spoken (ASR) form must not regress. Loose
// bounds; skipped when the dev file is absent (a failure with SCRUBLINE_REQUIRE_DEV_DATA=1, as in CI).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evaluate, fullSystem, loadPresidio, PII_FILE, toAsr } from '../../eval/pii.js';
import { required } from '../helpers/require.js';

const samples = loadPresidio();
const DIGIT_KINDS = ['USSocialSecurityNumber', 'CreditCardNumber', 'PhoneNumber', 'IPAddress', 'USDriversLicenseNumber'] as const;

test('ASR converter keeps gold spans on the spoken words', () => {
  const a = toAsr('SSN: 123-45-6789, mail Jo.B@x.com', [{ kind: 'USSocialSecurityNumber', start: 5, end: 16 }, { kind: 'Email', start: 23, end: 33 }]);
  const text = a.words.join(' ');
  assert.equal(text, 'ssn one two three four five six seven eight nine mail jo dot b at x dot com');
  assert.equal(text.slice(a.gold[0].start, a.gold[0].end), 'one two three four five six seven eight nine');
  assert.equal(text.slice(a.gold[1].start, a.gold[1].end), 'jo dot b at x dot com');
});

test('spoken-form recall of digit kinds on the Presidio sample', { skip: required(!samples && `dev PII file absent (${PII_FILE})`, 'SCRUBLINE_REQUIRE_DEV_DATA') }, () => {
  const { spoken, written } = evaluate(fullSystem(), samples!);
  let gold = 0;
  let missed = 0;
  for (const k of DIGIT_KINDS) {
    const s = spoken.get(k);
    if (!s) continue;
    gold += s.gold;
    missed += s.fn;
  }
  assert.ok(gold >= 10, `too few digit spans (${gold})`);
  const recall = (gold - missed) / gold;
  assert.ok(recall >= 0.85, `spoken digit-kind recall ${recall.toFixed(2)}`);
  for (const k of ['USSocialSecurityNumber', 'CreditCardNumber'] as const) {
    assert.equal(spoken.get(k)?.recall, 1, `${k} spoken recall`);
    assert.equal(written.get(k)?.recall, 1, `${k} written recall`);
  }
});
