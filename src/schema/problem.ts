// Errors as RFC 9457 problem details, with the JSON path of each invalid field.
import Type, { type Static } from 'typebox';

export const FieldIssue = Type.Object(
  {
    pointer: Type.String({ description: 'JSON Pointer of the field, e.g. /processJob/vendorATranscript/utterances/0/events/0/start' }),
    path: Type.String({ description: 'The same place written as a path, e.g. processJob.vendorATranscript.utterances[0].events[0].start' }),
    message: Type.String(),
  },
  { additionalProperties: true },
);
export type FieldIssue = Static<typeof FieldIssue>;

export const Problem = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.Optional(Type.String()),
    instance: Type.Optional(Type.String()),
    errors: Type.Optional(Type.Array(FieldIssue)),
  },
  { additionalProperties: true, title: 'problem', description: 'RFC 9457 problem details.' },
);
export type Problem = Static<typeof Problem>;
