// The messages of a live stream (WebSocket /asr/stream), declared once: the client's start and end messages
// (validated here, described in the OpenAPI document), and what the server sends: realTimeMessage objects with
// a sequence number, and the closing summary. Between them, pause/resume control messages mark sensitive windows.
import Type, { type Static } from 'typebox';
import { idString } from '../bounds.js';

const str = (description: string) => Type.Optional(idString({ description }));

/** The documented range of a stream's maxDelay (s), and the value SCRUBLINE_STREAM_MAX_DELAY falls back to when out of it. */
export const MAX_DELAY_RANGE = { min: 0.7, max: 4, default: 4 } as const;

export const STREAM_ENCODINGS = ['pcm_s16le', 'mulaw', 'alaw'] as const;

export const StreamStart = Type.Object(
  {
    type: Type.Literal('start'),
    token: str('An API key, for clients that cannot set headers (browsers): checked like `Authorization: Bearer`.'),
    sampleRate: Type.Integer({ minimum: 8000, maximum: 48000, description: 'Samples per second of each channel.' }),
    encoding: Type.Union(STREAM_ENCODINGS.map((e) => Type.Literal(e)), { description: 'pcm_s16le (16-bit little-endian), mulaw or alaw (G.711, 8-bit).' }),
    channels: Type.Optional(Type.Integer({ minimum: 1, maximum: 2, default: 1, description: 'Channels interleaved in each binary frame (2: agent and caller).' })),
    agentChannel: Type.Optional(Type.Integer({ minimum: 0, maximum: 1, description: 'Which channel is the agent (speaker "agent"; the other is "caller").' })),
    sid: str('Project whose published configuration applies: its real_time rules redact in flight, all its rules the after-call job.'),
    types: Type.Optional(Type.Array(idString(), { maxItems: 200, description: 'Entity kinds to redact in flight besides the project\'s real_time rules.' })),
    scrubaudio: Type.Optional(Type.Boolean({ description: 'The after-call job redacts the audio too.' })),
    scrubsound: Type.Optional(
      Type.Union([Type.Literal('tone'), Type.Literal('silence')], { description: 'What replaces a redacted audio span in the after-call job: a 1 kHz tone (default) or silence.' }),
    ),
    engagementId: str('Engagement metadata, copied into every realTimeMessage.'),
    ucid: str('Universal call id, copied into every realTimeMessage.'),
    callSid: str("The telephony call's id (Twilio: the start message's callSid): the after-call job and the kept finals are found by it (GET /asr/jobs?callSid=, GET /asr/streams?callSid=)."),
    agentId: str('Agent, copied into every realTimeMessage.'),
    clientNumber: Type.Optional(Type.String({ maxLength: 64, description: 'The caller\'s number (a phone field: masked like every phone number).' })),
    campaign: str('Campaign, copied into every realTimeMessage.'),
    model: str('Model as language:name; en-us:auto (default) takes en-us:telephony for 8 kHz audio when installed. A sherpa-onnx model streams too (offline ones per utterance).'),
    partials: Type.Optional(Type.Boolean({ default: true, description: 'Send partial (isFinal false) messages.' })),
    maxDelay: Type.Optional(
      Type.Number({
        minimum: MAX_DELAY_RANGE.min,
        maximum: MAX_DELAY_RANGE.max,
        // No schema default: an absent maxDelay is the server's (SCRUBLINE_STREAM_MAX_DELAY, else finals at utterance ends).
        description:
          'Seconds from the end of a spoken word to the final that holds it (PocketSphinx models; absent: the server\'s SCRUBLINE_STREAM_MAX_DELAY, else finals at utterance ends): long unpaused speech gets finals of part of the utterance (stable prefixes, words never cut) so no word waits longer. Shorter costs more CPU per stream.',
      }),
    ),
    job: Type.Optional(Type.Boolean({ default: true, description: 'Make the after-call job from the stream\'s audio.' })),
    // What an upload can ask of its job, for the after-call job (Twilio: <Parameter>s of the same names).
    webhook: Type.Optional(
      Type.String({ maxLength: 2048, pattern: '^[^\\u0000-\\u001f\\u007f]*$', description: 'The after-call job\'s notification URL (as an upload\'s `webhook`; the same address policy).' }),
    ),
    analytics: Type.Optional(Type.Boolean({ description: 'The after-call job runs call analytics (as an upload\'s `analytics`).' })),
    insights: Type.Optional(Type.Array(idString(), { maxItems: 200, description: 'Insights of the project (sid) the after-call job runs, or * for all (as an upload\'s `insights`).' })),
  },
  { additionalProperties: false, title: 'streamStart', description: 'The first message of a stream (text frame).' },
);
export type StreamStart = Static<typeof StreamStart>;

export const StreamEnd = Type.Object({ type: Type.Literal('end') }, { additionalProperties: false, title: 'streamEnd' });

const controlChannel = Type.Optional(
  Type.Integer({ minimum: 0, maximum: 255, description: 'The channel (0-based); every channel of the stream when absent.' }),
);

/** The client marks the start of a sensitive window (issue 17): what is said from here is redacted whatever was recognized. */
export const StreamPause = Type.Object(
  {
    type: Type.Literal('pause'),
    kind: Type.Optional(idString({ description: 'Entity kind the window stands for (e.g. CreditCardNumber; any letter case); SENSITIVE when absent.' })),
    channel: controlChannel,
  },
  { additionalProperties: false, title: 'streamPause', description: 'Open a sensitive window at the audio received so far on the channel(s).' },
);
export type StreamPause = Static<typeof StreamPause>;

export const StreamResume = Type.Object(
  { type: Type.Literal('resume'), channel: controlChannel },
  { additionalProperties: false, title: 'streamResume', description: 'Close the open sensitive window on the channel (every open one when absent).' },
);
export type StreamResume = Static<typeof StreamResume>;
