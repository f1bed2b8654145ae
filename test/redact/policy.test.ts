// The redaction policy resolver (src/redact/policy.ts), rule by rule: kind names and their spellings, the
// request's ask, the project's requirement, admin lowering, resubmit unions and the masks of a policy.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ServiceError } from '../../src/errors.js';
import { DEFAULT_KINDS, ENTITY_KINDS } from '../../src/redact/entityKinds.js';
import {
  canonicalKind,
  jobPolicy,
  parseKinds,
  policyRules,
  type ProjectInForce,
  resolvePolicy,
  storedPolicy,
  unionPolicies,
} from '../../src/redact/policy.js';
import type { ProjectConfig } from '../../src/schema/resources/projectConfig.js';

const ALL = [...DEFAULT_KINDS];
const project = (config: Omit<ProjectConfig, 'sid'>, version = 3): ProjectInForce => ({ sid: 'bank', version, config: { sid: 'bank', ...config } });

/** The 400 a call throws: its detail and its issues' pointers. */
function refusal(call: () => unknown): { detail: string; pointers: string[] } {
  try {
    call();
  } catch (error) {
    assert.ok(error instanceof ServiceError, String(error));
    assert.equal(error.kind, 'invalid');
    return { detail: error.message, pointers: error.issues.map((i) => i.pointer) };
  }
  assert.fail('expected a 400');
}

describe('kind names', () => {
  test('exact, any letter case, trimmed; all and * are every kind; anything else is not a kind', () => {
    assert.equal(canonicalKind('CreditCardNumber'), 'CreditCardNumber');
    assert.equal(canonicalKind('creditcardnumber'), 'CreditCardNumber');
    assert.equal(canonicalKind(' CreditCardNumber '), 'CreditCardNumber');
    assert.equal(canonicalKind('USSOCIALSECURITYNUMBER'), 'USSocialSecurityNumber');
    for (const all of ['all', 'ALL', ' All ', '*']) assert.equal(canonicalKind(all), 'all', all);
    for (const junk of ['SSN', 'CreditCard', 'Credit Card Number', '', 'Person,Email']) assert.equal(canonicalKind(junk), undefined, junk);
  });

  test('every spelling of a list gives the same kinds, canonical and in one order', () => {
    const expected = ['Person', 'CreditCardNumber'];
    const spellings: unknown[] = [
      ['Person', 'CreditCardNumber'],
      '["Person","CreditCardNumber"]',
      ['["Person","CreditCardNumber"]'],
      'Person,CreditCardNumber',
      'Person, CreditCardNumber',
      ['Person', 'CreditCardNumber', 'person'],
      ['CreditCardNumber', 'Person'],
      ['creditcardnumber', ' PERSON '],
      ['Person,', ',CreditCardNumber'],
      ['["Person"]', 'CreditCardNumber'],
    ];
    for (const spelling of spellings) assert.deepEqual(parseKinds(spelling), expected, JSON.stringify(spelling));
    assert.deepEqual(parseKinds(undefined), []);
    assert.deepEqual(parseKinds(''), []);
    assert.deepEqual(parseKinds('all'), ALL);
    assert.deepEqual(parseKinds(['Person', '*']), ALL);
    assert.deepEqual(parseKinds('["all"]'), ALL);
  });

  test('an unknown name is a 400 naming the field and listing the valid kinds', () => {
    const bad = refusal(() => parseKinds('SSN,CreditCard'));
    assert.deepEqual(bad.pointers, ['/types']);
    assert.match(bad.detail, /"SSN", "CreditCard" are not entity kinds/);
    for (const kind of ENTITY_KINDS) assert.ok(bad.detail.includes(kind), `${kind} is listed`);
    assert.deepEqual(refusal(() => parseKinds(['Person', 'Nope'], 'redactionRequest.types')).pointers, ['/redactionRequest/types']);
    assert.deepEqual(refusal(() => parseKinds(['x'], 'processJob.request.types')).pointers, ['/processJob/request/types']);
  });

  test('a broken JSON list or a non-string is a 400, never an empty list', () => {
    assert.deepEqual(refusal(() => parseKinds('["Person",')).pointers, ['/types']);
    assert.deepEqual(refusal(() => parseKinds('[1, 2]')).pointers, ['/types']);
    assert.deepEqual(refusal(() => parseKinds([7])).pointers, ['/types']);
    assert.deepEqual(refusal(() => parseKinds({ kind: 'Person' })).pointers, ['/types']);
  });
});

describe('resolvePolicy: the request alone', () => {
  test('nothing asked: no redaction', () => {
    assert.deepEqual(resolvePolicy({ ask: {} }), { kinds: [], text: false, audio: false });
    assert.deepEqual(resolvePolicy({ ask: { scrubtext: false, scrubaudio: false } }), { kinds: [], text: false, audio: false });
  });

  test('types alone: text redaction of those kinds', () => {
    assert.deepEqual(resolvePolicy({ ask: { kinds: ['Email', 'Person'] } }), { kinds: ['Person', 'Email'], text: true, audio: false });
  });

  test('a scrub flag with no kinds: every kind; scrubaudio implies text', () => {
    assert.deepEqual(resolvePolicy({ ask: { scrubtext: true } }), { kinds: ALL, text: true, audio: false });
    assert.deepEqual(resolvePolicy({ ask: { scrubaudio: true } }), { kinds: ALL, text: true, audio: true });
    assert.deepEqual(resolvePolicy({ ask: { scrubaudio: true, kinds: ['USSocialSecurityNumber'] } }), { kinds: ['USSocialSecurityNumber'], text: true, audio: true });
  });

  test('scrubtext=false does not cancel the kinds named', () => {
    assert.deepEqual(resolvePolicy({ ask: { scrubtext: false, kinds: ['Person'] } }).kinds, ['Person']);
  });
});

describe('resolvePolicy: the project', () => {
  const scrubbing = project({ scrubtext: true, rules: [{ name: 'USSocialSecurityNumber', active: true }, { name: 'Email', active: false }] });

  test('a project that scrubs requires its active rules\' kinds, even when the request says nothing', () => {
    assert.deepEqual(resolvePolicy({ ask: {}, project: scrubbing }), { kinds: ['USSocialSecurityNumber'], text: true, audio: false, sid: 'bank', version: 3 });
  });

  test('a project that scrubs with no rules, or only inactive ones, requires every kind', () => {
    assert.deepEqual(resolvePolicy({ ask: {}, project: project({ scrubtext: true }) }).kinds, ALL);
    assert.deepEqual(resolvePolicy({ ask: {}, project: project({ scrubtext: true, rules: [] }) }).kinds, ALL);
    assert.deepEqual(resolvePolicy({ ask: {}, project: project({ scrubaudio: true, rules: [{ name: 'Person', active: false }] }) }), {
      kinds: ALL,
      text: true,
      audio: true,
      sid: 'bank',
      version: 3,
    });
  });

  test('a project that does not scrub requires nothing; a scrub flag then means its active rules', () => {
    const quiet = project({ scrubtext: false, rules: [{ name: 'Person', active: true }] });
    assert.deepEqual(resolvePolicy({ ask: {}, project: quiet }).kinds, []);
    assert.deepEqual(resolvePolicy({ ask: { scrubtext: true }, project: quiet }).kinds, ['Person']);
    assert.deepEqual(resolvePolicy({ ask: { scrubtext: true }, project: project({}) }).kinds, ALL, 'no active rules: every kind');
  });

  test('the request adds kinds and audio; an inactive project rule does not remove a kind it names', () => {
    assert.deepEqual(resolvePolicy({ ask: { kinds: ['Email', 'CreditCardNumber'], scrubaudio: true }, project: scrubbing }), {
      kinds: ['USSocialSecurityNumber', 'Email', 'CreditCardNumber'],
      text: true,
      audio: true,
      sid: 'bank',
      version: 3,
    });
  });

  test('a submit key cannot lower what the project requires: scrubtext=false and scrubaudio=false are ignored', () => {
    const audio = project({ scrubaudio: true, rules: [{ name: 'Person', active: true }] });
    for (const mayLower of [false, undefined]) {
      const policy = resolvePolicy({ ask: { scrubtext: false, scrubaudio: false }, project: audio, mayLower });
      assert.deepEqual(policy, { kinds: ['Person'], text: true, audio: true, sid: 'bank', version: 3 });
    }
  });

  test('an admin key may lower it, and the policy says so', () => {
    const audio = project({ scrubaudio: true, rules: [{ name: 'Person', active: true }] });
    assert.deepEqual(resolvePolicy({ ask: { scrubtext: false }, project: audio, mayLower: true }), {
      kinds: [],
      text: false,
      audio: false,
      sid: 'bank',
      version: 3,
      lowered: true,
    });
    assert.deepEqual(resolvePolicy({ ask: { scrubaudio: false }, project: audio, mayLower: true }), {
      kinds: ['Person'],
      text: true,
      audio: false,
      sid: 'bank',
      version: 3,
      lowered: true,
    });
    // Lowering what was never required is no lowering; kinds the admin names still apply.
    assert.equal(resolvePolicy({ ask: { scrubtext: false }, project: project({}), mayLower: true }).lowered, undefined);
    assert.deepEqual(resolvePolicy({ ask: { scrubtext: false, kinds: ['Email'] }, project: audio, mayLower: true }).kinds, ['Email']);
  });

  test('real time: the project\'s real_time rules, and everything it requires when it scrubs; never audio', () => {
    const live = project({ rules: [{ name: 'USSocialSecurityNumber', active: true, real_time: true }, { name: 'Person', active: true, real_time: false }] });
    assert.deepEqual(resolvePolicy({ ask: {}, project: live, realTime: true }).kinds, ['USSocialSecurityNumber']);
    assert.deepEqual(resolvePolicy({ ask: { kinds: ['Email'] }, project: live, realTime: true }).kinds, ['USSocialSecurityNumber', 'Email']);
    // A project that scrubs requires all its active kinds of live text too, real_time or not.
    const scrubbing = project({ scrubtext: true, rules: [{ name: 'USSocialSecurityNumber', active: true, real_time: true }, { name: 'Person', active: true }] });
    assert.deepEqual(resolvePolicy({ ask: {}, project: scrubbing, realTime: true }).kinds, ['Person', 'USSocialSecurityNumber']);
    const scrubsAll = resolvePolicy({ ask: {}, project: project({ scrubaudio: true }), realTime: true });
    assert.deepEqual([scrubsAll.kinds, scrubsAll.audio], [ALL, false]);
    assert.deepEqual(resolvePolicy({ ask: { scrubtext: true }, realTime: true }).kinds, ALL);
  });
});

describe('resubmits and stored policies', () => {
  test('a resubmit is the union of the old and the new policy: never lower', () => {
    const old = resolvePolicy({ ask: { kinds: ['Person'], scrubaudio: true } });
    const fresh = resolvePolicy({ ask: { scrubtext: false, kinds: ['Email'] } });
    assert.deepEqual(unionPolicies(old, fresh), { kinds: ['Person', 'Email'], text: true, audio: true });
    assert.deepEqual(unionPolicies(old, resolvePolicy({ ask: {} })), { kinds: ['Person'], text: true, audio: true });
  });

  test('a job runs its stored policy with what its project requires now, unless an admin lowered it', () => {
    const now = project({ scrubtext: true, rules: [{ name: 'CreditCardNumber', active: true }] }, 4);
    const stored = resolvePolicy({ ask: { kinds: ['Person'] } });
    assert.deepEqual(jobPolicy({ redactionPolicy: stored }, now), { kinds: ['Person', 'CreditCardNumber'], text: true, audio: false, sid: 'bank', version: 4 });
    const lowered = { kinds: [], text: false, audio: false, sid: 'bank', version: 3, lowered: true };
    assert.deepEqual(jobPolicy({ redactionPolicy: lowered }, now).kinds, []);
    // Queued before policies were recorded: resolved from its parameters.
    assert.deepEqual(jobPolicy({ types: ['person'], scrubtext: false }, now).kinds, ['Person', 'CreditCardNumber']);
    assert.deepEqual(jobPolicy({ scrubtext: true }, undefined).kinds, ALL);
  });

  test('a malformed stored policy counts as every kind, never as none', () => {
    assert.deepEqual(storedPolicy({ audio: true })?.kinds, ALL);
    assert.deepEqual(storedPolicy({ kinds: ['person', 'NoSuchKind'] })?.kinds, ['Person']);
    assert.equal(storedPolicy(undefined), undefined);
  });
});

describe('the masks of a policy', () => {
  test('the project\'s active rule for a kind gives its mask; others a Placeholder of the kind', () => {
    const config: ProjectConfig = {
      sid: 'bank',
      rules: [
        { name: 'person', active: true, mask_type: 'EntityIndex', setting: '[NAME]' },
        { name: 'Email', active: false, mask_type: 'Remove' },
        { name: 'CreditCardNumber', active: true, mask_type: 'MaskCharacter' },
      ],
    };
    const policy = resolvePolicy({ ask: { kinds: ['Person', 'Email', 'CreditCardNumber', 'ZipCode'] } });
    assert.deepEqual(policyRules(policy, config), [
      { kind: 'Person', maskType: 'EntityIndex', setting: '[NAME]' },
      { kind: 'Email', maskType: 'Placeholder', setting: '[EMAIL]' },
      { kind: 'CreditCardNumber', maskType: 'MaskCharacter', setting: '*' },
      { kind: 'ZipCode', maskType: 'Placeholder', setting: '[ZIP_CODE]' },
    ]);
    assert.deepEqual(policyRules(resolvePolicy({ ask: {} }), config), [], 'only the policy\'s kinds');
  });
});
