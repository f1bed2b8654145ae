// Resource 8: the transcript shape (processJob.transcript and transcriptRedacted).
import Type, { type Static } from 'typebox';
import { bool, content, dateTime, ident, num, open, opt } from '../fields.js';

export const TranscriptShape = open(
  {
    format: opt(ident()),
    job: opt(
      open({
        created_at: opt(dateTime()),
        data_name: opt(content()), // a file name
        duration: opt(num()),
        id: opt(ident()),
        tracking: opt(open({ reference: opt(ident()) })),
      }),
    ),
    metadata: opt(
      open({
        created_at: opt(dateTime()),
        transcription_config: opt(open({ diarization: opt(ident()), language: opt(ident()) })),
        type: opt(ident()),
      }),
    ),
    results: opt(
      Type.Array(
        open({
          alternatives: opt(
            Type.Array(open({ confidence: opt(num()), content: opt(content()), language: opt(ident()), speaker: opt(ident()) })),
          ),
          end_time: opt(num()),
          start_time: opt(num()),
          type: opt(ident()),
          channel: opt(ident()),
          is_eos: opt(bool()),
        }),
      ),
    ),
  },
  { title: 'transcript', description: 'Resource 8.' },
);
export type TranscriptShape = Static<typeof TranscriptShape>;
