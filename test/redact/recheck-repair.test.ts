// The pure parts of issue 31, on hand-made transcripts: what the re-recognition check widens
// (redact/windows/recheckRepair.ts), how much speech a redaction mutes per channel (mutedSpeech.ts), and the
// bounds of payment segments (modes.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AppliedWindow } from '../../src/redact/windows/apply.js';
import { modeWindows, PAYMENT_SEGMENT_JOIN_SECONDS, PAYMENT_SEGMENT_MAX_SECONDS, paymentSegments } from '../../src/redact/windows/modes.js';
import { mutedSpeechReport } from '../../src/redact/windows/mutedSpeech.js';
import { heardKind, stretchesToWiden } from '../../src/redact/windows/recheckRepair.js';
import type { Transcript } from '../../src/transcript/types.js';

const w = (word: string, start: number, end: number) => ({ word, start, end, confidence: 0.5 });
const heard = (channel1: ReturnType<typeof w>[], channel0: ReturnType<typeof w>[] = []): Transcript => ({
  model: 'm', engine: 'e', language: 'en-us', audioSeconds: 60, sourceSampleRate: 8000, processingSeconds: 0,
  channels: [
    { channel: 0, words: channel0, segments: [] },
    { channel: 1, words: channel1, segments: [] },
  ],
});
const r = (t: number) => Math.round(t * 1000) / 1000;
const win = (channel: number, start: number, end: number, source: AppliedWindow['source'] = 'mark'): AppliedWindow => ({ channel, start, end, kind: 'SENSITIVE', source });

describe('what the re-recognition check widens', () => {
  test('words are digits, number words, homophones, or ordinary', () => {
    assert.deepEqual(['seven', '7', 'oh', 'twenty', 'hundred', 'for', 'won', 'tree', 'thanks', ''].map(heardKind), ['digit', 'digit', 'digit', 'number', 'number', 'homophone', 'homophone', 'homophone', undefined, undefined]);
  });

  test('inside or beside a window every digit is widened; far from any, a number read out is, a lone digit is only counted', () => {
    const out = stretchesToWiden(heard([w('four', 2.2, 2.5), w('seven', 3.3, 3.6), w('nine', 30, 30.3), w('two', 40, 40.2), w('for', 40.5, 40.7), w('one', 41, 41.2), w('4539', 50, 51)]), [win(1, 2, 3)], { margin: 0.25 });
    assert.deepEqual(out.stretches.map((s) => [s.channel, r(s.start), r(s.end), s.heard, s.where]), [
      [1, 1.95, 2.75, { digit: 1 }, 'inside'],
      [1, 3.05, 3.85, { digit: 1 }, 'beside'],
      // "two for one": a run of three number words, widened whole (the homophone with it).
      [1, 39.75, 41.45, { digit: 2, homophone: 1 }, 'elsewhere'],
      [1, 49.75, 51.25, { digit: 1 }, 'elsewhere'],
    ]);
    assert.equal(out.lone, 1, '"nine" alone at 30 s is counted, not widened');
  });

  test('a homophone widens only inside or beside a window; far from one it is an ordinary word', () => {
    const out = stretchesToWiden(heard([w('for', 2.2, 2.4), w('to', 3.5, 3.6), w('to', 20, 20.1), w('twenty', 40, 40.4)]), [win(1, 2, 3)], { margin: 0.1 });
    assert.deepEqual(out.stretches.map((s) => [r(s.start), r(s.end), s.heard, s.where]), [
      [2.1, 2.5, { homophone: 1 }, 'inside'],
      [3.4, 3.7, { homophone: 1 }, 'beside'],
    ]);
    assert.equal(out.lone, 1, '"twenty" alone far from any window');
  });

  test('a window on the other channel is not beside; stretches that touch merge; none runs past the recording', () => {
    const out = stretchesToWiden(heard([w('for', 2.2, 2.4), w('five', 9.5, 9.7), w('six', 9.8, 9.95)]), [win(0, 2, 3)], { margin: 0.3, duration: 10 }).stretches;
    assert.deepEqual(out.map((s) => [s.channel, r(s.start), r(s.end), s.heard, s.where]), [[1, 9.2, 10, { digit: 2 }, 'elsewhere']]);
  });

  test('nothing number-like heard: nothing to widen', () => {
    assert.deepEqual(stretchesToWiden(heard([w('thanks', 2.2, 2.6)], [w('hello', 0, 0.4)]), [win(1, 2, 3)]), { stretches: [], lone: 0 });
  });
});

describe('muted speech per channel', () => {
  test('seconds muted, seconds of speech, and the share of that speech muted, per channel and role', () => {
    const recognized = heard([w('four', 1, 1.5), w('five', 1.5, 2), w('thanks', 5, 6)], [w('hello', 0, 1)]);
    recognized.channels[1].segments = [{ start: 5.5, end: 7 }];
    const report = mutedSpeechReport(recognized, [{ channel: 1, start: 0.9, end: 2.1 }, { channel: 1, start: 2, end: 3 }, { channel: 1, start: 6.5, end: 8 }], 2, 0);
    assert.deepEqual(report, [
      { channel: 0, role: 'agent', mutedSeconds: 0, speechSeconds: 1, speechMutedSeconds: 0, speechMutedShare: 0 },
      // Speech 1-2 and 5-7 (a word and a segment overlapping counted once): 3 s; muted 1-2 and 6.5-7.
      { channel: 1, role: 'caller', mutedSeconds: 3.6, speechSeconds: 3, speechMutedSeconds: 1.5, speechMutedShare: 0.5 },
    ]);
    assert.deepEqual(mutedSpeechReport(recognized, [], 1, 0).map((r) => r.role), ['both']);
  });
});

describe('payment segments that stay segments', () => {
  const context = { mode: 'payment-segment' as const, channels: 2, agentChannel: 0, duration: 600 };

  test('windows close together make one segment on the caller channel, whatever channel they were on', () => {
    const out = modeWindows([win(0, 10, 12, 'cue'), win(1, 14, 25, 'number'), win(0, 30, 31, 'cue'), win(1, 33, 36, 'number')], context);
    assert.deepEqual(out.map((x) => [x.channel, x.start, x.end, x.source]), [[1, 10, 36, 'mode']]);
  });

  test('a stray digit window far from the payment does not extend it: it is a segment of its own', () => {
    const out = modeWindows([win(0, 10, 12, 'cue'), win(1, 14, 25, 'number'), win(1, 250, 252, 'number')], context);
    assert.deepEqual(out.map((x) => [x.channel, x.start, x.end]), [[1, 10, 25], [1, 250, 252]]);
    // The old segment (10 s to 252 s) muted the caller for 242 s; these mute 17 s.
    assert.equal(out.reduce((t, x) => t + x.end - x.start, 0), 17);
  });

  test('a segment grows to at most its maximum: windows chained every few seconds do not mute the call', () => {
    const chain = Array.from({ length: 60 }, (_, i) => win(1, i * 10, i * 10 + 2, 'number'));
    const segments = paymentSegments(chain);
    for (const s of segments) assert.ok(s.end - s.start <= PAYMENT_SEGMENT_MAX_SECONDS, JSON.stringify(s));
    assert.ok(segments.length >= 5, JSON.stringify(segments));
    // Every window is inside a segment: bounds never redact less than the windows.
    for (const c of chain) assert.ok(segments.some((s) => s.start <= c.start && s.end >= c.end));
    assert.ok(PAYMENT_SEGMENT_JOIN_SECONDS < PAYMENT_SEGMENT_MAX_SECONDS);
  });

  test('a window longer than the maximum is kept whole; bounds can be set', () => {
    assert.deepEqual(paymentSegments([win(1, 0, 200, 'mark')]), [{ start: 0, end: 200 }]);
    assert.deepEqual(paymentSegments([win(1, 0, 1), win(1, 3, 4), win(1, 8, 9)], { joinSeconds: 2.5, maxSeconds: 100 }), [{ start: 0, end: 4 }, { start: 8, end: 9 }]);
    assert.deepEqual(paymentSegments([win(1, 0, 1), win(1, 3, 4), win(1, 5, 6)], { joinSeconds: 10, maxSeconds: 5 }), [{ start: 0, end: 4 }, { start: 5, end: 6 }]);
  });
});
