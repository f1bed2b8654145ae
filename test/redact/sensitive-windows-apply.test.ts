// Applying sensitive windows to a transcript (redact/windows/apply.ts), the window modes (modes.ts) and the
// windows report (report.ts), on hand-made transcripts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyWindows, clipWindows, type AppliedWindow } from '../../src/redact/windows/apply.js';
import { callerChannels, modeWindows } from '../../src/redact/windows/modes.js';
import { isDigitWord, recheckWindows, windowsReport } from '../../src/redact/windows/report.js';
import type { Transcript } from '../../src/transcript/types.js';

const w = (word: string, start: number, end: number) => ({ word, start, end, confidence: 0.5 });
const transcript = (): Transcript => ({
  model: 'm', engine: 'e', language: 'en-us', audioSeconds: 10, sourceSampleRate: 8000, processingSeconds: 0,
  channels: [
    { channel: 0, words: [w('what', 0, 0.5), w('is', 0.6, 0.8), w('it', 0.9, 1.1)], segments: [] },
    { channel: 1, words: [w('it', 2, 2.2), w('for', 2.3, 2.6), w('five', 2.7, 3), w('won', 3.1, 3.4), w('thanks', 5, 5.5)], segments: [] },
  ],
});
const win = (channel: number, start: number, end: number, kind = 'SENSITIVE', source: AppliedWindow['source'] = 'mark'): AppliedWindow => ({ channel, start, end, kind, source });

describe('applying sensitive windows', () => {
  test('the words of the window\'s channel that overlap it become one mask word; its span covers the window and those words', () => {
    const out = applyWindows(transcript(), [win(1, 2.4, 3.2, 'CreditCardNumber')], []);
    assert.deepEqual(out.transcript.channels[1].words.map((x) => x.word), ['it', '[CREDIT_CARD_NUMBER]', 'thanks']);
    assert.deepEqual(out.transcript.channels[0].words.map((x) => x.word), ['what', 'is', 'it'], 'the other channel is untouched');
    assert.deepEqual(out.spans, [{ channel: 1, kind: 'CreditCardNumber', start: 2.3, end: 3.4, replacement: '[CREDIT_CARD_NUMBER]', confidence: 1 }]);
    assert.equal(out.maskedWords, 3);
  });

  test('a window over no word still gives its whole span (the audio is redacted whatever was recognized)', () => {
    const out = applyWindows(transcript(), [win(1, 6, 8)], []);
    assert.deepEqual(out.transcript.channels[1].words.map((x) => x.word), ['it', 'for', 'five', 'won', 'thanks']);
    assert.deepEqual(out.spans.map((s) => [s.channel, s.start, s.end]), [[1, 6, 8]]);
  });

  test("the policy's Placeholder is the mask; Remove drops the words and keeps the span", () => {
    const placeholder = applyWindows(transcript(), [win(1, 2.4, 3.2, 'CreditCardNumber')], [{ kind: 'CreditCardNumber', maskType: 'Placeholder', setting: '[CARD]' }]);
    assert.deepEqual(placeholder.transcript.channels[1].words.map((x) => x.word), ['it', '[CARD]', 'thanks']);
    const removed = applyWindows(transcript(), [win(1, 2.4, 3.2, 'CreditCardNumber')], [{ kind: 'CreditCardNumber', maskType: 'Remove', setting: '' }]);
    assert.deepEqual(removed.transcript.channels[1].words.map((x) => x.word), ['it', 'thanks']);
    assert.equal(removed.spans.length, 1);
  });

  test('windows are clipped to the recording; empty ones dropped', () => {
    assert.deepEqual(clipWindows([win(0, 9, 12), win(1, 11, 12)], 10).map((x) => [x.start, x.end]), [[9, 10]]);
  });
});

describe('window modes', () => {
  test('payment-segment mutes the caller from the first window to the last; agent-only the caller whole', () => {
    const windows = [win(0, 1, 2, 'SENSITIVE', 'cue'), win(1, 4, 5, 'SENSITIVE', 'keypad')];
    assert.deepEqual(modeWindows(windows, { mode: 'payment-segment', channels: 2, agentChannel: 0, duration: 10 }).map((x) => [x.channel, x.start, x.end, x.source]), [[1, 1, 5, 'mode']]);
    assert.deepEqual(modeWindows([], { mode: 'payment-segment', channels: 2, agentChannel: 0, duration: 10 }), []);
    assert.deepEqual(modeWindows([], { mode: 'agent-only', channels: 2, agentChannel: 1, duration: 10 }).map((x) => [x.channel, x.start, x.end]), [[0, 0, 10]]);
    assert.deepEqual(modeWindows(windows, { mode: 'windows', channels: 2, agentChannel: 0, duration: 10 }), []);
    assert.deepEqual(callerChannels(1, 0), [0], 'mono: the one channel (more, never less)');
  });
});

describe('windows report and recheck', () => {
  test('counts by source, seconds per channel counted once where windows overlap, no reasons', () => {
    const report = windowsReport([win(1, 1, 3), { ...win(1, 2, 4, 'CVV', 'cue'), reason: 'the security code' } as AppliedWindow, win(0, 0, 0.5, 'DTMF', 'keypad')], 2, 10);
    assert.deepEqual(report.bySource, { entity: 0, cue: 1, number: 0, mark: 1, keypad: 1, insight: 0, mode: 0 });
    assert.deepEqual(report.secondsByChannel, [0.5, 3]);
    assert.ok(!JSON.stringify(report).includes('security code'));
  });

  test('digits heard inside a window on its channel are counted; number-like words apart; words elsewhere not', () => {
    const heard = transcript();
    const report = recheckWindows(heard, [win(1, 2, 3.5)]);
    assert.deepEqual([report.digitsInWindows, report.numberLikeInWindows, report.wordsInWindows], [1, 2, 4]);
    assert.equal(recheckWindows(heard, [win(0, 2, 3.5)]).wordsInWindows, 0);
    assert.ok(isDigitWord('4') && isDigitWord('oh') && isDigitWord('Seven') && !isDigitWord('for'));
  });
});
