// The parameters of POST /asr/transcribe, declared once: multipart fields and query strings are text and
// are coerced to these types; a JSON body must have them. Names follow the engine's (V-Blaze) and the
// request shape (resource 7).
// Every value is bounded (schema/bounds.ts): these are also the query parameters of the route.
import Type, { type Static } from 'typebox';
import { idString, MAX_IDENT_LENGTH, NO_CONTROL_CHARACTERS } from '../schema/bounds.js';
import { engineInt, scrubMinDist } from '../schema/resources/engineParams.js';
import { NOTIFICATION_CONTENTS } from '../schema/resources/notificationContents.js';
import { MAX_MARKED_WINDOWS, Notification, SensitiveWindowMark } from '../schema/resources/request.js';
import { TRANSCRIPT_FORMATS } from '../transcript/index.js';

const bool = (description: string) => Type.Optional(Type.Boolean({ description }));
/** An id or name: bounded, no control characters. */
const str = (description: string) => Type.Optional(idString({ description }));
/** A URL: bounded, no control characters. */
const url = (description: string) => Type.Optional(Type.String({ maxLength: MAX_IDENT_LENGTH, pattern: NO_CONTROL_CHARACTERS, description }));
/** A transcript sent as text: as long as the body allows (bounded here only so that the schema is). */
const MAX_TEXT_LENGTH = 64 * 1024 * 1024;

export const TranscribeParams = Type.Object(
  {
    model: str('Model as language:name; chosen by the service when absent.'),
    language: str('Language code, e.g. en-us.'),
    diarize: bool('One speaker per channel (stereo) is always kept; accepted for compatibility.'),
    numtrans: bool('Spoken numbers as digits in formattedText.'),
    punctuate: bool('Sentence-final punctuation in the json-v2 shape.'),
    scrubtext: bool('Redact text: the kinds in `types`, else the project\'s rules, else every kind. false cannot lower what the project requires (admin keys only).'),
    scrubaudio: bool('Redact audio (and text) of the same kinds.'),
    realtime: bool('Accepted for compatibility.'),
    // The engine's ranges, as set-parameter refuses them (schema/resources/engineParams.ts).
    activitylevel: Type.Optional(engineInt('activitylevel')),
    uttmaxsilence: Type.Optional(engineInt('uttmaxsilence')),
    uttminactivity: Type.Optional(engineInt('uttminactivity')),
    uttpadding: Type.Optional(engineInt('uttpadding')),
    uttmaxtime: Type.Optional(engineInt('uttmaxtime')),
    scrubmindist: Type.Optional(scrubMinDist()),
    scrubsound: Type.Optional(
      Type.Union([Type.Literal('tone'), Type.Literal('silence')], { description: 'What replaces a redacted audio span: a 1 kHz tone (default) or silence.' }),
    ),
    sid: str('Project whose published configuration applies (exact match; an unknown sid is a 400).'),
    tracking_id: str('Your reference, echoed in the transcript shape.'),
    callSid: str("The telephony call's id (e.g. a Twilio CallSid): GET /asr/jobs?callSid= lists the call's jobs. A Twilio stream's after-call job has it."),
    priority: Type.Optional(
      Type.Union([Type.Enum(['high', 'normal', 'low']), Type.Integer({ minimum: -100, maximum: 100 })], {
        description: 'high, normal (default), low, or an integer -100..100; higher runs first.',
      }),
    ),
    jobId: str('Resubmit: run this existing job again with these parameters, on its stored audio.'),
    types: Type.Optional(
      Type.Array(idString(), {
        maxItems: 200,
        description: 'Entity kinds to redact (any letter case; `all` or `*` for every kind; unknown names are a 400). Form and query fields: a JSON array, a comma list or repeated fields.',
      }),
    ),
    insights: Type.Optional(
      Type.Array(idString(), {
        maxItems: 200,
        description: "Ids of insights of the project's published configuration (sid) to run on the transcript, or * for all; the record then carries analytics, insightLines, ... (README \"Conversation intelligence\").",
      }),
    ),
    analytics: bool('Call analytics on the transcript (talk time, silence, over-talk, sentiment, key phrases, entities): the record carries what post-call gives the same transcript.'),
    notification: Type.Optional(
      Type.Object(
        {
          ...Notification.properties,
          contents: Type.Optional(
            Type.Array(Type.Enum(Object.keys(NOTIFICATION_CONTENTS)), {
              maxItems: 16,
              description:
                'What the notification carries besides the event and the job: `transcript` (json-v2), `transcript.txt`, `transcript.srt`, `transcript.vtt`, ' +
                '`transcript.utterances`, `transcript.vendorA`, `transcript.vendorB` (in `transcripts`, keyed so; the redacted transcript when redaction ran, ' +
                'and none unless the job and its redaction completed); `jobinfo` is always sent.',
            }),
          ),
        },
        { additionalProperties: true, description: 'Where the terminal event goes: url, method, auth_headers, contents.' },
      ),
    ),
    webhook: url('A URL to POST the terminal event to (as notification.url).'),
    agent_location: Type.Optional(Type.Enum(['left', 'right'], { description: 'Which channel is the agent.' })),
    agent: str("The agent who took the call (an id): the job's insight results are counted under it (GET /asr/insights/summary) and search can filter by it."),
    campaign: str("The campaign of the call (an id): the job's insight results are counted under it and search can filter by it."),
    direction: str('inbound or outbound.'),
    wait: Type.Optional(Type.Integer({ minimum: 0, maximum: 600, description: 'Block up to N seconds for the result.' })),
    text: Type.Optional(
      Type.String({
        maxLength: MAX_TEXT_LENGTH,
        // Any text but NUL, which the store cannot hold: refused naming the field, never silently dropped.
        pattern: '^[^\\u0000]*$',
        description: 'A text transcript instead of audio (JSON requests); one utterance per line, "Agent:"/"Caller:" prefixes name the speaker.',
      }),
    ),
    isZip: bool('The upload is a zip of recordings.'),
    retentionPolicy: Type.Optional(Type.Integer({ minimum: 0, maximum: 36_500, description: "Days to keep the job (audio, transcript, record) after it ends; 0 or absent: keep." })),
    autoDelete: bool('Delete the original recording as soon as the job ends (the transcript and any redacted copy are kept; wins over keepOriginal).'),
    keepOriginal: bool(
      'With scrubaudio: keep the original recording beside the redacted copy (default: it is deleted once the copy is written and checked). ' +
        'A kept original is served by GET /asr/jobs/{jobId}/audio?redacted=false to admin keys only, each read an event.',
    ),
    fileName: str('Name recorded for the job (text jobs).'),
    cloudStoragePath: url(
      'A recording in a bucket, fetched by the worker: "bucket/key", "s3://bucket/key" (a bare key is in the settings\' bucket), or a presigned http(s) URL (through the same address policy as notification targets).',
    ),
    cloudStorageFolder: url('Every recording under a bucket folder ("bucket/prefix/" or "s3://bucket/prefix/"), one job each (a batch).'),
    transcriptInput: url(
      'A transcript (UTF-8 text) in a bucket, read by the worker: "bucket/key" or "s3://bucket/key" (a bare key is in the settings\' bucket). The job is a text job, as with `text`; not with `text`, audio or cloudStoragePath.',
    ),
    transcriptOutput: url('A bucket folder ("bucket/prefix/" or "s3://...") the results are written to, under <job id>/ (transcripts, redacted audio, job.json).'),
    cloudHosted: bool('The recording is in cloud storage: results go to the settings\' `folder` when transcriptOutput is absent.'),
    removeRedactedJob: bool('Once the results are written to transcriptOutput, the job is removed from the service (the written results stay).'),
    outputFormats: Type.Optional(
      Type.Array(Type.Union(TRANSCRIPT_FORMATS.map((f) => Type.Literal(f))), { maxItems: TRANSCRIPT_FORMATS.length, description: 'Transcript shapes written to transcriptOutput (default vendorA, transcript).' }),
    ),
    endpoint: str("The bucket's S3 endpoint (MinIO, Ceph...); else the project's or system settings'."),
    region: str("The bucket's region; else the project's or system settings'."),
    apiKeyCloud: str('Access key id for the bucket (a credential: sealed, masked); else the project\'s or system settings\'.'),
    secretKeyCloud: str('Secret key for the bucket (a credential: sealed, masked); else the project\'s or system settings\'.'),
    cueWindows: bool(
      'Sensitive windows (docs "defaults"). Absent: whenever a number kind is redacted, number speech (digits heard as "to", "for", "oh"...), stray digits and payment cues ("can I have the card number") are redacted whatever was recognized. true: every kind\'s cues too (a name after "may I have your name"), as a project\'s cueWindows.enabled. false: none of them; admin-scope keys only (recorded as a redaction_lowered event), any other key gets a 403. Live streams set true on their after-call job.',
    ),
    sensitiveWindows: Type.Optional(
      Type.Array(SensitiveWindowMark, {
        maxItems: MAX_MARKED_WINDOWS,
        description:
          'Windows an agent desktop or IVR marked (pause/resume): [{start, end, channel, kind?}], seconds. The audio of the channel and the words in each window are redacted whatever was recognized. Form and query fields: a JSON string.',
      }),
    ),
  },
  { additionalProperties: true, description: 'Parameters of POST /asr/transcribe.' },
);
export type TranscribeParams = Static<typeof TranscribeParams>;

export function priorityValue(priority: TranscribeParams['priority']): number {
  if (priority === undefined || priority === 'normal') return 0;
  if (priority === 'high') return 10;
  if (priority === 'low') return -10;
  return priority;
}
