// A two-party call built so every figure can be worked out by hand (issue 18, must-show 1). Agent on the left
// channel (0), caller on the right (1), recording 18 s long:
//
//   agent  0-4   "hello thanks for calling"         words 0-1 1-2 2-3 3-4
//   caller 3.5-7 "hi i need help"                   words 3.5-4.5 4.5-5 5-6 6-7      over-talk 3.5-4 (0.5 s)
//   agent  9-12  "sure i can help"                  words 9-10 10-10.5 10.5-11 11-12
//   caller 11-13 "great thanks"                     words 11-12 12-13                over-talk 11-12 (1 s)
//   agent  15-16 "goodbye"                          word 15-16
//
// Speech (union of all words): 0-7, 9-13, 15-16 = 12 s; silence 18 - 12 = 6 s (7-9, 13-15, 16-18).
// Agent talk 4 + 3 + 1 = 8 s (9 words, 67.5 wpm); caller 3.5 + 2 = 5.5 s (6 words, 65.5 wpm).
// Over-talk: 2 stretches, 1.5 s, average 0.75 s. Conversation order A C A C A: 4 speaker changes; 3 agent
// utterances, 2 caller utterances.
type Word = [string, number, number];
const utt = (channel: number, words: Word[]) => ({
  metadata: { channel },
  start: words[0][1],
  end: words[words.length - 1][2],
  events: words.map(([word, start, end]) => ({ word, start, end, confidence: 0.9 })),
});

export const HAND_CALL = {
  eventId: 'hand-call',
  campaign: { agentLocation: 'left' },
  vendorATranscript: {
    audiosecs: 18,
    nchannels: 2,
    utterances: [
      utt(0, [['hello', 0, 1], ['thanks', 1, 2], ['for', 2, 3], ['calling', 3, 4]]),
      utt(1, [['hi', 3.5, 4.5], ['i', 4.5, 5], ['need', 5, 6], ['help', 6, 7]]),
      utt(0, [['sure', 9, 10], ['i', 10, 10.5], ['can', 10.5, 11], ['help', 11, 12]]),
      utt(1, [['great', 11, 12], ['thanks', 12, 13]]),
      utt(0, [['goodbye', 15, 16]]),
    ],
  },
};

export const HAND_FIGURES = {
  duration: 18,
  silence: 6,
  overtalk: { count: 2, total: 1.5, average: 0.75 },
  speakerChanges: 4,
  agent: { talkTime: 8, utterances: 3, words: 9, wordsPerMinute: 67.5 },
  caller: { talkTime: 5.5, utterances: 2, words: 6, wordsPerMinute: 65.5 },
  // The caller starts at 3.5 inside the agent's [0, 4] (0.5 s over) and at 11 inside the agent's [9, 12] (1 s over);
  // the agent never starts while the caller talks.
  interruptions: [{ speaker: 1, interrupted: 0, count: 2, time: 1.5, at: [3.5, 11] }],
  // Speech [0, 7], [9, 13], [15, 16] of 18 s: three gaps of 2 s.
  nonTalk: [
    { start: 7, end: 9, duration: 2 },
    { start: 13, end: 15, duration: 2 },
    { start: 16, end: 18, duration: 2 },
  ],
  // Quarters of 4.5 s: the agent starts utterances at 0, 9, 15 (quarters 0, 2, 3), the caller at 3.5, 11 (0, 2).
  quartersSpoken: { agent: [true, false, true, true], caller: [true, false, true, false] },
};
