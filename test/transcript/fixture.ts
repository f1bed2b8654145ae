// A synthetic two-channel call with known word times: the agent on the left (channel 0), the caller on the
// right (channel 1); the caller starts while the agent is finishing (over-talk), the agent then talks over the
// caller, both are silent for a long stretch, numbers are spoken, and one cut comes only from the VAD.
import type { Transcript, Word } from '../../src/transcript/types.js';

/** Words of `text` starting at `start`, one every `step` seconds, each lasting `duration`. */
export function say(start: number, text: string, step = 0.4, duration = 0.3, confidence = 0.9): Word[] {
  return text.split(' ').map((word, i) => ({
    word,
    start: Math.round((start + i * step) * 1000) / 1000,
    end: Math.round((start + i * step + duration) * 1000) / 1000,
    confidence: Math.round((confidence - (i % 3) * 0.05) * 1000) / 1000,
  }));
}

export const AGENT_LINES = [
  { start: 0.5, text: 'thank you for calling acme how can i help you' }, // 0.5 - 4.4
  { start: 6.0, text: 'can i have your date of birth please' }, // 6.0 - 9.1 (talks over the caller's 4.0 - 7.5)
  { start: 20.0, text: 'thank you one of them is enough' }, // 20.0 - 22.7
  { start: 23.0, text: 'have a nice day' }, // 23.0 - 24.5: 0.3 s after, but in another VAD segment
];

export const CALLER_LINES = [
  { start: 4.0, text: 'hi my card number is four one one oh' }, // 4.0 - 7.5 (starts before the agent ends: 4.0 - 4.4)
  { start: 9.5, text: 'it is nineteen eighty four' }, // 9.5 - 11.4
  { start: 12.4, text: 'my code is double five and the year two thousand and five' }, // 12.4 - 17.1 (1.0 s pause before)
  { start: 26.0, text: 'one hundred twenty dollars or twenty three' }, // 26.0 - 28.7
];

export function syntheticCall(): Transcript {
  const agentWords = AGENT_LINES.flatMap((l) => say(l.start, l.text));
  const callerWords = CALLER_LINES.flatMap((l) => say(l.start, l.text, 0.4, 0.3, 0.8));
  return {
    model: 'en-us:telephony',
    engine: 'pocketsphinx',
    language: 'en-us',
    audioSeconds: 30,
    sourceSampleRate: 8000,
    processingSeconds: 3.2,
    channels: [
      {
        channel: 0,
        words: agentWords,
        segments: [
          { start: 0.3, end: 4.6 },
          { start: 5.8, end: 9.3 },
          { start: 19.8, end: 22.8 },
          { start: 22.9, end: 24.7 },
        ],
      },
      {
        channel: 1,
        words: callerWords,
        segments: [
          { start: 3.8, end: 7.7 },
          { start: 9.3, end: 17.0 },
          { start: 25.8, end: 28.9 },
        ],
      },
    ],
  };
}

export const META = {
  jobId: '0b6e3f9a-8c21-4d57-a6f4-19e2c8b7d053',
  fileName: 'call-4481.wav',
  createdAt: '2024-03-14T15:02:11.000Z',
  startedAt: '2024-03-14T15:02:12.250Z',
  completedAt: '2024-03-14T15:02:19.500Z',
  campaignId: 'campaign-7',
  conversationId: 'c2f4a8e1-5b7d-4c3e-9a1f-3d6b8e2c7a90',
  trackingId: 'trk-4481',
  streamtags: { numtrans: 'true', punctuate: false, scrubtext: 'false', diarize: true, model: 'en-us:telephony', sid: 'acme', token: 'secret-token', apiKey: 'k' },
};
