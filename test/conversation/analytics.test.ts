// Must-show 1: the hand-built call's figures come out exactly; roles follow agentLocation; every shape a record
// carries gives the same conversation.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { callFigures } from '../../src/conversation/analytics.js';
import { conversationOfRecord, recordRoleOptions } from '../../src/conversation/normalize.js';
import { scoreText } from '../../src/conversation/sentiment.js';
import type { EventRecord } from '../../src/schema/resources/eventRecord.js';
import { HAND_CALL, HAND_FIGURES } from './fixture.js';

const record = HAND_CALL as unknown as EventRecord;

describe('call analytics on the hand-built call', () => {
  test('every figure comes out exactly', () => {
    const conversation = conversationOfRecord(record, recordRoleOptions(record))!;
    assert.equal(conversation.source, 'vendorATranscript');
    assert.deepEqual(conversation.utterances.map((u) => u.role), ['agent', 'caller', 'agent', 'caller', 'agent']);
    const f = callFigures(conversation);
    assert.equal(f.duration, HAND_FIGURES.duration);
    assert.equal(f.silence, HAND_FIGURES.silence);
    assert.deepEqual(f.overtalk, HAND_FIGURES.overtalk);
    assert.equal(f.speakerChanges, HAND_FIGURES.speakerChanges);
    const agent = f.speakers.find((s) => s.role === 'agent')!;
    const caller = f.speakers.find((s) => s.role === 'caller')!;
    assert.deepEqual({ talkTime: agent.talkTime, utterances: agent.utterances, words: agent.words, wordsPerMinute: agent.wordsPerMinute }, HAND_FIGURES.agent);
    assert.deepEqual({ talkTime: caller.talkTime, utterances: caller.utterances, words: caller.words, wordsPerMinute: caller.wordsPerMinute }, HAND_FIGURES.caller);
    assert.equal(agent.speaker, 0);
    assert.equal(caller.speaker, 1);
  });

  test('interruptions per party, non-talk stretches and sentiment by quarter come out exactly', () => {
    const f = callFigures(conversationOfRecord(record, recordRoleOptions(record))!, { sentiment: true });
    assert.deepEqual(f.interruptions, HAND_FIGURES.interruptions);
    assert.deepEqual(f.nonTalk, HAND_FIGURES.nonTalk);
    const agent = f.speakers.find((s) => s.role === 'agent')!;
    const caller = f.speakers.find((s) => s.role === 'caller')!;
    assert.deepEqual([agent.interruptions, agent.interrupted, caller.interruptions, caller.interrupted, caller.interruptionTime], [0, 2, 2, 0, 1.5]);
    assert.deepEqual(agent.sentiment!.quarters.map((q) => q !== null), HAND_FIGURES.quartersSpoken.agent);
    assert.deepEqual(caller.sentiment!.quarters.map((q) => q !== null), HAND_FIGURES.quartersSpoken.caller);
    // Quarter 0 of the agent is its first utterance alone.
    const first = scoreText('hello thanks for calling');
    assert.deepEqual(agent.sentiment!.quarters[0], { polarity: first.polarity, score: first.score });
  });

  test('a reply that starts as the other stops, or two that start together, interrupt nobody', () => {
    const call = {
      campaign: { agentLocation: 'left' },
      vendorATranscript: {
        audiosecs: 6,
        nchannels: 2,
        utterances: [
          { metadata: { channel: 0 }, start: 0, end: 2, events: [{ word: 'yes', start: 0, end: 2 }] },
          { metadata: { channel: 1 }, start: 2, end: 3, events: [{ word: 'ok', start: 2, end: 3 }] },
          { metadata: { channel: 0 }, start: 4, end: 5, events: [{ word: 'so', start: 4, end: 5 }] },
          { metadata: { channel: 1 }, start: 4, end: 5, events: [{ word: 'and', start: 4, end: 5 }] },
        ],
      },
    } as unknown as EventRecord;
    const f = callFigures(conversationOfRecord(call, recordRoleOptions(call))!);
    assert.deepEqual(f.interruptions, []);
    assert.equal(f.overtalk.count, 1, 'the simultaneous start is over-talk all the same');
  });

  test('agentLocation right swaps the roles, not the figures', () => {
    const right = { ...record, campaign: { agentLocation: 'right' } } as EventRecord;
    const f = callFigures(conversationOfRecord(right, recordRoleOptions(right))!);
    assert.equal(f.speakers.find((s) => s.role === 'agent')!.talkTime, HAND_FIGURES.caller.talkTime);
    assert.equal(f.speakers.find((s) => s.role === 'caller')!.talkTime, HAND_FIGURES.agent.talkTime);
  });

  test('channelDiarizationLabels place the agent when agentLocation is absent', () => {
    const labelled = { ...record, campaign: { channelDiarizationLabels: 'Customer|Agent' } } as EventRecord;
    const c = conversationOfRecord(labelled, recordRoleOptions(labelled))!;
    assert.equal(c.utterances[0].role, 'caller');
  });

  test('the same call as json-v2 results gives the same figures', () => {
    const results = HAND_CALL.vendorATranscript.utterances.flatMap((u) =>
      u.events.map((e, i) => ({
        type: 'word',
        start_time: e.start,
        end_time: e.end,
        channel: `channel_${u.metadata.channel + 1}`,
        is_eos: i === u.events.length - 1,
        alternatives: [{ content: e.word, confidence: 0.9 }],
      })),
    );
    const asJson = { campaign: { agentLocation: 'left' }, processJob: { duration: 18, transcript: { results } } } as unknown as EventRecord;
    const c = conversationOfRecord(asJson, recordRoleOptions(asJson))!;
    assert.equal(c.source, 'processJob.transcript');
    const f = callFigures(c);
    assert.equal(f.silence, 6);
    assert.deepEqual(f.overtalk, HAND_FIGURES.overtalk);
    assert.equal(f.speakerChanges, 4);
  });

  test('a mono recording keeps the engine speakers and has no roles', () => {
    const mono = {
      vendorATranscript: { nchannels: 1, utterances: HAND_CALL.vendorATranscript.utterances.map((u) => ({ ...u, metadata: { channel: 0 } })) },
    } as unknown as EventRecord;
    const c = conversationOfRecord(mono)!;
    assert.equal(c.stereo, false);
    assert.ok(c.utterances.every((u) => u.role === undefined && u.speaker === 0));
    const f = callFigures(c);
    assert.equal(f.speakers.length, 1);
    assert.equal(f.speakerChanges, 0);
    assert.equal(f.overtalk.count, 0);
  });

  test('sentiment per utterance, per side, start against end', () => {
    const angry = {
      utterances: [
        { speaker: 1, start: 0, end: 2, text: 'this is terrible and i am angry' },
        { speaker: 0, start: 2, end: 4, text: 'i am sorry let me fix that' },
        { speaker: 1, start: 4, end: 6, text: 'ok' },
        { speaker: 1, start: 6, end: 8, text: 'great thank you that is wonderful' },
      ],
    } as unknown as EventRecord;
    const f = callFigures(conversationOfRecord(angry)!, { sentiment: true });
    assert.equal(f.utteranceSentiment![0].polarity, -1);
    assert.equal(f.utteranceSentiment![0].confidence, 1);
    assert.equal(f.utteranceSentiment![3].polarity, 1);
    const caller = f.speakers.find((s) => s.role === 'caller')!;
    assert.equal(caller.sentiment!.start, -1);
    assert.equal(caller.sentiment!.end, 1);
    assert.deepEqual(f.negativePhrases!.filter((p) => p.speaker === 1).map((p) => p.phrase).sort(), ['angry', 'terrible']);
    assert.ok(f.positivePhrases!.some((p) => p.phrase === 'wonderful' && p.line === 3));
  });
});
