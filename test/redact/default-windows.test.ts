// The default window level (issue 31, redact/windows/windowLevel.ts): whenever a number kind is redacted, number
// speech (look-alikes included), stray digits and payment cues make windows with no opt-in; the other kinds' cues
// stay opt-in; less than the defaults is an admin's decision, recorded, and any other key asking for it gets a 403.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { cliRules, redactForCli } from '../../src/cli/redaction.js';
import { ServiceError } from '../../src/errors.js';
import { textToTranscript } from '../../src/jobs/textTranscript.js';
import { policyRules, resolvePolicy, storedPolicy } from '../../src/redact/policy.js';
import { applyWindows, windowMask } from '../../src/redact/windows/apply.js';
import { findSensitiveWindows } from '../../src/redact/windows/sensitiveWindows.js';
import { windowLevel, windowPlan } from '../../src/redact/windows/windowLevel.js';
import type { Transcript } from '../../src/transcript/types.js';
import { json, startTestService, type TestService } from '../helpers/harness.js';
import { longestLeak } from '../helpers/spokenNumbers.js';

/** Words at 0.4 s each on their channels, from `start`, heard with `confidence`. */
function call(turns: { channel: number; text: string; start: number; confidence?: number }[]): Transcript {
  const channels = [...new Set(turns.map((t) => t.channel))].sort().map((channel) => ({
    channel,
    words: turns
      .filter((t) => t.channel === channel)
      .flatMap((t) => t.text.split(' ').map((word, i) => ({ word, start: t.start + i * 0.4, end: t.start + i * 0.4 + 0.35, confidence: t.confidence ?? 0.9 }))),
  }));
  const end = Math.max(...channels.flatMap((c) => c.words.map((w) => w.end))) + 1;
  return { channels, audioSeconds: end, model: 'test' } as unknown as Transcript;
}

function redactedText(transcript: Transcript, kinds: string[], level: 'default' | 'full' | 'off' = 'default'): string {
  const plan = windowPlan(level, kinds);
  const windows = plan ? findSensitiveWindows(transcript, plan) : [];
  const rules = policyRules({ kinds: kinds as any, text: true, audio: false });
  return applyWindows(transcript, windows, rules).transcript.channels.flatMap((c) => c.words.map((w) => w.word)).join(' ');
}

const CARD = '45320151128303628';

describe('the default window level', () => {
  test("the issue's card heard \"sure it is for 53 to 0151 line today 3036 to eight\" is masked by default", () => {
    const heard = call([{ channel: 0, text: 'sure it is for 53 to 0151 line today 3036 to eight', start: 0, confidence: 0.6 }]);
    assert.ok(longestLeak('sure it is for 53 to 0151 line today 3036 to eight', CARD) > 4, 'the text as heard leaks');
    const text = redactedText(heard, ['CreditCardNumber']);
    assert.ok(longestLeak(text, CARD) <= 4, text);
  });

  test('a card read with "to" for "two" after the agent asks for it is masked by default (stereo)', () => {
    const heard = call([
      { channel: 0, text: 'can i have the card number please', start: 0 },
      { channel: 1, text: 'okay it is to to for one to eight to to one to for to eight to to one', start: 3 },
    ]);
    const text = redactedText(heard, ['CreditCardNumber', 'Person']);
    assert.ok(longestLeak(text, '2241282212428221') <= 4, text);
  });

  test('scrubline transcribe --types CreditCardNumber masks the card heard as look-alikes too (the CLI output)', async () => {
    const heard = call([{ channel: 0, text: 'sure it is for 53 to 0151 line today 3036 to eight', start: 0, confidence: 0.6 }]);
    const out = await redactForCli(heard, cliRules({ types: 'CreditCardNumber' }), 'test-key');
    const text = out.channels.flatMap((c) => c.words.map((w) => w.word)).join(' ');
    assert.ok(longestLeak(text, CARD) <= 4, text);
  });

  test("a project's MaskCharacter rule stays its mask where a default window covers the value", () => {
    assert.equal(windowMask('CreditCardNumber', [{ kind: 'CreditCardNumber', maskType: 'MaskCharacter', setting: '#' }]), '####');
    assert.equal(windowMask('CreditCardNumber', [{ kind: 'CreditCardNumber', maskType: 'Hash', setting: '' }]), '[CREDIT_CARD_NUMBER]');
  });

  test('words given as text (a text job): a number run masks itself, not its whole turn; look-alikes still count', () => {
    const plan = windowPlan('default', ['USSocialSecurityNumber', 'CreditCardNumber'], undefined, true)!;
    const rules = policyRules({ kinds: ['USSocialSecurityNumber', 'CreditCardNumber'], text: true, audio: false });
    const masked = (text: string) => {
      const t = textToTranscript(text);
      return applyWindows(t, findSensitiveWindows(t, plan), rules).transcript.channels.flatMap((c) => c.words.map((w) => w.word)).join(' ');
    };
    const ssn = masked('hello, my social security number is 123-45-6789, thanks');
    assert.match(ssn, /my social security number is/, ssn);
    assert.ok(longestLeak(ssn, '123456789') <= 4, ssn);
    const card = masked('sure it is for 53 to 0151 line today 3036 to eight');
    assert.ok(longestLeak(card, CARD) <= 4, card);
  });

  test('ordinary talk with "for", "to", "one" keeps its words', () => {
    const words = 'i wanted to ask about my order it was for my daughter and it came one week late can you look into it for me';
    assert.equal(redactedText(call([{ channel: 0, text: words, start: 0 }]), ['CreditCardNumber', 'PhoneNumber', 'Person']), words);
  });

  test("other kinds' cues stay opt-in: a name after \"may i have your name\" is masked only with cueWindows: true", () => {
    const heard = call([
      { channel: 0, text: 'may i have your name', start: 0 },
      { channel: 1, text: 'it is zebulon quackenbush', start: 2.5 },
    ]);
    assert.match(redactedText(heard, ['Person', 'CreditCardNumber']), /zebulon/);
    assert.doesNotMatch(redactedText(heard, ['Person', 'CreditCardNumber'], 'full'), /zebulon/);
  });

  test('no number kind asked: no default windows; a number kind asked: windows for the number kinds only', () => {
    assert.equal(windowPlan('default', ['Person', 'Email']), undefined);
    const plan = windowPlan('default', ['Person', 'CreditCardNumber', 'PhoneNumber'])!;
    assert.deepEqual(plan.kinds, ['CreditCardNumber', 'PhoneNumber']);
    assert.deepEqual(Object.keys(plan.options.requests).sort(), ['ABARoutingNumber', 'CVV', 'CreditCardNumber', 'ExpirationDate', 'USBankAccountNumber', 'USSocialSecurityNumber']);
    assert.equal(windowPlan('off', ['CreditCardNumber']), undefined);
  });

  test('the level: a project or job may raise it; only a project (published by an admin) or a recorded admin lowering turns it off', () => {
    assert.equal(windowLevel(undefined, undefined), 'default');
    assert.equal(windowLevel({ phrases: { CreditCardNumber: ['the digits'] } }, undefined), 'default');
    assert.equal(windowLevel({ enabled: true }, undefined), 'full');
    assert.equal(windowLevel(undefined, 'full'), 'full');
    assert.equal(windowLevel({ enabled: false }, 'full'), 'full');
    assert.equal(windowLevel({ enabled: false }, undefined), 'off');
    assert.equal(windowLevel(undefined, 'off'), 'off');
  });

  test('cueWindows: false is a 403 for a key that is not admin, a recorded lowering for an admin key', () => {
    const ask = { kinds: ['CreditCardNumber' as const], cueWindows: false };
    assert.throws(
      () => resolvePolicy({ ask }),
      (e: unknown) => e instanceof ServiceError && e.kind === 'forbidden' && /admin/.test(e.message),
    );
    const admin = resolvePolicy({ ask, mayLower: true });
    assert.equal(admin.windows, 'off');
    assert.equal(admin.lowered, true);
    assert.equal(resolvePolicy({ ask: { kinds: ['CreditCardNumber'], cueWindows: true } }).windows, 'full');
    // Read back: 'off' holds only with the lowering recorded; anything else is the default level.
    assert.equal(storedPolicy({ kinds: ['CreditCardNumber'], windows: 'off' })?.windows, undefined);
    assert.equal(storedPolicy({ kinds: ['CreditCardNumber'], windows: 'off', lowered: true })?.windows, 'off');
  });
});

describe('the default window level through the service', () => {
  let svc: TestService;
  let admin: string;
  let submitter: string;
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
  before(async () => {
    svc = await startTestService('sqlite');
    const make = async (name: string, scope: string, by?: string) => {
      const res = await svc.request({ method: 'POST', url: '/system/keys', payload: { name, scope }, ...(by && { headers: bearer(by) }) });
      assert.equal(res.statusCode, 201, res.body);
      return json(res).key as string;
    };
    admin = await make('admin', 'admin');
    submitter = await make('submitter', 'submit', admin);
  });
  after(async () => svc.close());

  const submit = (key: string, payload: object) => svc.request({ method: 'POST', url: '/asr/transcribe?wait=60', payload, headers: bearer(key) });
  const eventsOf = async (subject: string) => {
    const body = json(await svc.request({ method: 'GET', url: `/system/events?subject=${subject}`, headers: bearer(admin) }));
    return (body.events ?? body.items ?? body) as any[];
  };

  test('a submit key asking for cueWindows: false gets a 403 that says why, and no job is made', async () => {
    const count = async () => (json(await svc.request({ method: 'GET', url: '/asr/jobs?limit=1000', headers: bearer(admin) })).jobs ?? []).length;
    const before = await count();
    const res = await submit(submitter, { text: 'hello there', types: ['CreditCardNumber'], cueWindows: false });
    assert.equal(res.statusCode, 403, res.body);
    assert.match(json(res).detail, /only an admin-scope key/);
    assert.equal(await count(), before);
    assert.equal((await submit(submitter, { text: 'hello there', types: ['CreditCardNumber'], cueWindows: true })).statusCode, 200, 'raising is anyone\'s');
  });

  test("an admin key's cueWindows: false is recorded as a redaction_lowered event on the job", async () => {
    const res = await submit(admin, { text: 'hello there', types: ['CreditCardNumber'], cueWindows: false });
    assert.equal(res.statusCode, 200, res.body);
    const lowered = (await eventsOf(json(res).jobId)).find((e: any) => e.subType === 'redaction_lowered');
    assert.ok(lowered, 'the lowering is recorded');
    assert.match(lowered.message, /cueWindows: false/);
  });

  test("a resubmit does not inherit an admin's cueWindows: false: a submit key's resubmit runs with the defaults", async () => {
    const first = await submit(admin, { text: 'sure it is for 53 to 0151 line today 3036 to eight', types: ['CreditCardNumber'], cueWindows: false });
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(json(first).redaction.policy.windows, 'off');
    const again = await submit(submitter, { jobId: json(first).jobId, text: 'sure it is for 53 to 0151 line today 3036 to eight' });
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(json(again).redaction.policy.windows, undefined, JSON.stringify(json(again).redaction.policy));
  });

  test('publishing cueWindows.enabled: false warns and records a redaction_lowered event', async () => {
    const res = await svc.request({ method: 'POST', url: '/system/cache/v2/publish', payload: { data: JSON.stringify({ sid: 'less', scrubtext: true, cueWindows: { enabled: false } }) }, headers: bearer(admin) });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(json(res).warnings.join(' '), /turns off the default redaction of spoken numbers/);
    assert.ok((await eventsOf('less')).some((e: any) => e.subType === 'redaction_lowered'));
  });
});
