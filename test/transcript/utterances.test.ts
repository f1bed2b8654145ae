// Words -> utterances (silence, VAD segments, maximum length, conversation order) and channel -> role.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { agentChannel, roleOf, speakersOf } from '../../src/transcript/roles.js';
import { buildUtterances, splitChannel, utteranceOptionsFromParams } from '../../src/transcript/utterances.js';
import { AGENT_LINES, CALLER_LINES, say, syntheticCall } from './fixture.js';

describe('utterances', () => {
  test('cut on silence and at VAD segment boundaries, in conversation order with stable rows', () => {
    const call = syntheticCall();
    const utterances = buildUtterances(call);
    assert.deepEqual(
      utterances.map((u) => [u.row, u.channel, u.start, u.end]),
      [
        [0, 0, 0.5, 4.4],
        [1, 1, 4.0, 7.5],
        [2, 0, 6.0, 9.1],
        [3, 1, 9.5, 11.4],
        [4, 1, 12.4, 17.1],
        [5, 0, 20.0, 22.7],
        [6, 0, 23.0, 24.5], // 0.3 s after the previous word, but in the next VAD segment
        [7, 1, 26.0, 28.7],
      ],
    );
    // each line of the fixture is one utterance
    const texts = utterances.map((u) => u.words.map((w) => w.word).join(' '));
    for (const line of [...AGENT_LINES, ...CALLER_LINES]) assert.ok(texts.includes(line.text), line.text);
    // word offsets index the channel's words
    for (const u of utterances) {
      assert.deepEqual(u.words, call.channels[u.channel].words.slice(u.wordStart, u.wordEnd));
    }
    // every word is in exactly one utterance
    for (const ch of call.channels) {
      const own = utterances.filter((u) => u.channel === ch.channel);
      assert.equal(own.reduce((n, u) => n + u.words.length, 0), ch.words.length);
    }
    // the same input gives the same rows
    assert.deepEqual(buildUtterances(syntheticCall()), utterances);
  });

  test('without VAD cuts, the 0.3 s pause does not end an utterance; a longer maxSilence joins more', () => {
    const call = syntheticCall();
    const noVad = buildUtterances(call, { splitAtSegments: false });
    assert.equal(noVad.length, 7);
    assert.equal(noVad.find((u) => u.start === 20)?.end, 24.5);
    const lenient = buildUtterances({ channels: call.channels.map((ch) => ({ ...ch, segments: [] })) }, { maxSilenceSeconds: 1.1 });
    // the caller's 1.0 s pause (11.4 -> 12.4) no longer cuts
    assert.ok(lenient.some((u) => u.channel === 1 && u.start === 9.5 && u.end === 17.1));
  });

  test('a pause of exactly maxSilence does not cut; one just over does', () => {
    const words = [...say(0, 'a b'), ...say(1.1, 'c')]; // b ends 0.7, c starts 1.1: 0.4 s
    assert.equal(splitChannel(0, words, [], { maxSilenceSeconds: 0.4 }).length, 1);
    assert.equal(splitChannel(0, words, [], { maxSilenceSeconds: 0.39 }).length, 2);
  });

  test('capped at maxUtteranceSeconds', () => {
    const words = say(0, Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ')); // 0 - 15.9 s, no pauses
    const parts = splitChannel(0, words, [], { maxUtteranceSeconds: 5 });
    assert.ok(parts.length >= 4);
    for (const p of parts) assert.ok(p.end - p.start <= 5 + 1e-9, `${p.start}-${p.end}`);
    assert.deepEqual(parts.flatMap((p) => p.words), words);
    // a word longer than the cap stands alone
    const long = splitChannel(0, [{ word: 'hmm', start: 0, end: 9, confidence: 1 }, ...say(9.2, 'ok')], [], { maxUtteranceSeconds: 5 });
    assert.deepEqual(long.map((p) => p.words.length), [1, 1]);
  });

  test('engine parameters in their units', () => {
    assert.deepEqual(utteranceOptionsFromParams({ uttmaxsilence: 800, uttmaxtime: 60 }), { maxSilenceSeconds: 0.8, maxUtteranceSeconds: 60 });
    assert.deepEqual(utteranceOptionsFromParams({}), { maxSilenceSeconds: undefined, maxUtteranceSeconds: undefined });
  });

  test('empty channels give no utterances', () => {
    assert.deepEqual(buildUtterances({ channels: [{ channel: 0, words: [], segments: [] }] }), []);
  });
});

describe('roles', () => {
  test('agent channel: left by default, right when told', () => {
    assert.equal(agentChannel(), 0);
    assert.equal(agentChannel({ agentLocation: 'left' }), 0);
    assert.equal(agentChannel({ agentLocation: 'Right' }), 1);
    assert.equal(agentChannel({ agentLocation: 'nonsense' }), 0);
    assert.equal(agentChannel({ direction: 'outbound' }), 0);
    assert.equal(agentChannel({ channelLabels: 'caller,agent' }), 1);
    assert.equal(agentChannel({ agentLocation: 'left', channelLabels: 'caller,agent' }), 0);
    assert.equal(roleOf(1, { agentLocation: 'right' }), 'agent');
    assert.equal(roleOf(0, { agentLocation: 'right' }), 'caller');
  });

  test('speaker integers follow the role: 0 agent, 1 caller; mono has one speaker and no role', () => {
    const left = speakersOf([0, 1]);
    assert.deepEqual(left.get(0), { channel: 0, speaker: 0, role: 'agent', label: 'Agent', tag: 'S1' });
    assert.deepEqual(left.get(1), { channel: 1, speaker: 1, role: 'caller', label: 'Caller', tag: 'S2' });
    const right = speakersOf([0, 1], { agentLocation: 'right' });
    assert.equal(right.get(1)?.speaker, 0);
    assert.equal(right.get(0)?.speaker, 1);
    assert.equal(right.get(0)?.role, 'caller');
    const mono = speakersOf([0]);
    assert.deepEqual(mono.get(0), { channel: 0, speaker: 0, label: 'Speaker', tag: 'S1' });
  });
});
