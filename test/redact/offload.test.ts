// Redaction off the event loop (src/workers): a large input goes to the worker pool and comes back
// exactly as the inline function would have answered it; a small one runs inline; an error thrown in a worker
// comes back with its name and message, and a ServiceError as a ServiceError (a refusal stays a 4xx). The pool
// closes, and a later task starts a new one.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { dtmfFrequencies } from '../../src/audio/dtmf.js';
import { ServiceError } from '../../src/errors.js';
import { keypadEntries } from '../../src/audio/keypadEntries.js';
import { Masker } from '../../src/redact/masks.js';
import { receiveError, sendError } from '../../src/workers/errors.js';
import {
  closeRedactionPool,
  INLINE_MAX_CHARS,
  keypadEntriesOffLoop,
  offLoopTasksInFlight,
  redactRecordOffLoop,
  redactTextOffLoop,
  redactTranscriptOffLoop,
} from '../../src/workers/index.js';
import { recordRules } from '../../src/redact/recordRules.js';
import { redactRecord } from '../../src/redact/redactRecord.js';
import { redactText } from '../../src/redact/redactText.js';
import { redactTranscript } from '../../src/redact/redactTranscript.js';
import { resolveRules } from '../../src/redact/policy.js';
import type { EventRecord } from '../../src/schema/resources/eventRecord.js';
import type { Transcript } from '../../src/transcript/types.js';

const KEY = 'hash-key';
const rules = resolveRules({ types: ['CreditCardNumber', 'USSocialSecurityNumber', 'PhoneNumber'] });
const line = (i: number) => `caller ${i} card 4111 1111 1111 1111 social 123-45-6789 pin 44${String(i % 100).padStart(2, '0')} thanks`;
/** Lines until the text is over the inline limit. */
const LINES = Math.ceil(INLINE_MAX_CHARS / line(0).length) + 10;
const ownRules = { redactionTypes: [{ rules: [{ value: '/pin \\d{4}/', type: 'Pin', maskType: 'EntityIndex' }] }] };

after(() => closeRedactionPool());

describe('large inputs run on the worker pool and answer what the inline function answers', () => {
  test('a record, with its own rules rebuilt in the worker (EntityIndex numbering kept across fields)', async () => {
    const record = { eventId: 'e1', ...ownRules, utterances: Array.from({ length: LINES }, (_, i) => ({ speaker: i % 2, text: line(i) })) } as EventRecord;
    const pending = redactRecordOffLoop(record, rules, KEY);
    assert.equal(offLoopTasksInFlight(), 1, 'the record was handed to the pool');
    const off = await pending;
    assert.equal(offLoopTasksInFlight(), 0);
    assert.deepEqual(off, redactRecord(record, rules, new Masker(KEY), recordRules(record)));
    // EntityIndex: the same PIN has the same index wherever it appears (lines 100 apart carry the same PIN).
    const last = off.record.utterances![LINES - 1].text!;
    assert.match(last, new RegExp(`^caller ${LINES - 1} card \\[CREDIT_CARD_NUMBER\\] social \\[US_SOCIAL_SECURITY_NUMBER\\] \\[PIN_\\d+\\] thanks$`));
    assert.equal(last.match(/\[PIN_\d+\]/)![0], off.record.utterances![LINES - 101].text!.match(/\[PIN_\d+\]/)![0]);
  });

  test('a message, with the rules of the record that carries it', async () => {
    const text = Array.from({ length: LINES }, (_, i) => line(i)).join('. ');
    const pending = redactTextOffLoop(text, rules, KEY, ownRules);
    assert.equal(offLoopTasksInFlight(), 1);
    assert.deepEqual(await pending, redactText(text, rules, new Masker(KEY), recordRules(ownRules)));
  });

  test('a job transcript', async () => {
    const words = Array.from({ length: LINES }, (_, i) => line(i).split(' ')).flat().map((word, i) => ({ word, start: i / 2, end: i / 2 + 0.4, confidence: 0.9 }));
    const transcript: Transcript = { model: 'm', engine: 'e', language: 'en', audioSeconds: words.length, sourceSampleRate: 8000, processingSeconds: 0, channels: [{ channel: 0, words, segments: [] }] };
    const pending = redactTranscriptOffLoop(transcript, rules, KEY);
    assert.equal(offLoopTasksInFlight(), 1);
    const off = await pending;
    assert.deepEqual(off, redactTranscript(transcript, rules, new Masker(KEY)));
    assert.ok(off.spans.length >= 2 * LINES);
  });

  test('keypad tones of a recording; the caller keeps its samples', async () => {
    const rate = 8000;
    const samples = new Int16Array(rate * 3);
    // "5" at 0.5-0.6 s, "9" at 2.2-2.3 s: two keypad entries (more than a second apart).
    for (const [digit, at] of [['5', 0.5], ['9', 2.2]] as const) {
      const [low, high] = dtmfFrequencies(digit);
      for (let i = Math.round(at * rate); i < Math.round((at + 0.1) * rate); i++) samples[i] = Math.round(6000 * (Math.sin((2 * Math.PI * low * i) / rate) + Math.sin((2 * Math.PI * high * i) / rate)));
    }
    const pcm = { samples, sampleRate: rate, channels: 1 };
    const entries = await keypadEntriesOffLoop(pcm);
    assert.deepEqual(entries, keypadEntries(pcm));
    assert.equal(entries.length, 2);
    assert.equal(samples.length, rate * 3, 'the samples were not handed away');
  });
});

test('a small input runs inline (no worker hop)', async () => {
  const pending = redactTextOffLoop(line(1), rules, KEY);
  assert.equal(offLoopTasksInFlight(), 0);
  assert.equal((await pending).text, 'caller 1 card [CREDIT_CARD_NUMBER] social [US_SOCIAL_SECURITY_NUMBER] pin 4401 thanks');
});

describe('errors come back typed', () => {
  test('an error thrown in the worker keeps its name and message', async () => {
    const broken = { channels: [{ channel: 0, words: 'x'.repeat(INLINE_MAX_CHARS + 1) }] } as unknown as Transcript;
    await assert.rejects(redactTranscriptOffLoop(broken, rules, KEY), (error: Error) => error.name === 'TypeError' && /words/.test(error.message + error.stack));
  });
  test('a ServiceError crosses the thread as a ServiceError, with its kind and issues', () => {
    const issue = { pointer: '/redactionTypes/0/rules/0/value', path: 'redactionTypes[0].rules[0].value', message: 'is not valid' };
    const back = receiveError(structuredClone(sendError(new ServiceError('invalid', 'A rule cannot be used.', [issue]))));
    assert.ok(back instanceof ServiceError);
    assert.equal(back.kind, 'invalid');
    assert.equal(back.message, 'A rule cannot be used.');
    assert.deepEqual(back.issues, [issue]);
  });
});

test('a closed pool is replaced by a new one on the next task', async () => {
  await closeRedactionPool();
  const text = Array.from({ length: LINES }, (_, i) => line(i)).join(' ');
  assert.equal((await redactTextOffLoop(text, rules, KEY)).found.length > 0, true);
});
