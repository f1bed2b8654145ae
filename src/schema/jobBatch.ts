// The answer of POST /asr/transcribe when one request made several jobs (a zip with isZip, several file parts)
// or some of its recordings were refused: the jobs made, and each refused recording with the reason.
import Type, { type Static } from 'typebox';
import { content, ident } from './fields.js';

export const RejectedRecording = Type.Object(
  {
    fileName: content({ description: 'The recording as named in the request (or inside the zip).' }),
    status: ident({ description: 'Why, as a kind of problem: unsupported_media, too_large, unprocessable, ...' }),
    detail: content({ description: 'The reason in words.' }),
  },
  { additionalProperties: true },
);

export const JobBatch = Type.Object(
  {
    jobs: Type.Array(Type.Ref('Job'), { description: 'One job per usable recording, in request order.' }),
    rejected: Type.Optional(Type.Array(RejectedRecording, { description: 'The recordings that made no job (absent when none).' })),
  },
  { additionalProperties: false, title: 'jobBatch', description: 'Jobs made by one request of several recordings.' },
);
export type JobBatch = Static<typeof JobBatch>;
