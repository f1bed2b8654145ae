// Resource 7: the request shape (processJob.request and the event record's redactionRequest).
import Type, { type Static } from 'typebox';
import { ENTITY_KINDS } from '../../redact/entityKinds.js';
import { credential, group, ident, key, open, opt } from '../fields.js';

export const Notification = open({
  url: opt(ident()),
  method: opt(ident()),
  auth_headers: opt(Type.Array(credential(), { description: '"Name: value" header lines sent with the notification.' })),
});

/** Longest recording a sensitive window may name (s): a day, past any recording the service accepts. */
export const MAX_WINDOW_SECONDS = 86_400;

/**
 * A sensitive window an agent desktop or IVR marked (pause/resume): the audio of `channel` from `start` to `end`
 * (seconds from the start of the recording) and the words said in it are redacted whatever was recognized.
 * Not in the interface: Scrubline's own field (issue 17).
 */
export const SensitiveWindowMark = Type.Object(
  {
    start: Type.Number({ minimum: 0, maximum: MAX_WINDOW_SECONDS, description: 'Seconds from the start of the recording.' }),
    end: Type.Number({ minimum: 0, maximum: MAX_WINDOW_SECONDS, description: 'Seconds from the start of the recording; after start.' }),
    channel: Type.Integer({ minimum: 0, maximum: 255, description: '0-based audio channel (0 left, 1 right); the recording must have it.' }),
    kind: opt(Type.Enum([...ENTITY_KINDS, 'SENSITIVE'], { description: 'Entity kind the window stands for (e.g. CreditCardNumber); SENSITIVE when absent.' })),
  },
  { additionalProperties: false, description: 'A client-marked sensitive window.' },
);
export type SensitiveWindowMark = Static<typeof SensitiveWindowMark>;

/** At most this many marked windows per job or record. */
export const MAX_MARKED_WINDOWS = 1000;
export const SensitiveWindowMarks = Type.Array(SensitiveWindowMark, { maxItems: MAX_MARKED_WINDOWS, description: 'Client-marked sensitive windows (pause/resume).' });

export const JobRequest = open(
  {
    ...group(['sid', 'tracking_id'], key),
    ...group(['engine', 'program', 'language', 'policy'], ident),
    insights: opt(Type.Array(ident())),
    types: opt(Type.Array(ident())),
    notification: opt(Notification),
    sensitiveWindows: opt(SensitiveWindowMarks),
  },
  { title: 'request', description: 'Resource 7.' },
);
export type JobRequest = Static<typeof JobRequest>;
