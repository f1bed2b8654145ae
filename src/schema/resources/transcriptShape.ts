// Resource 8: the transcript shape (processJob.transcript and transcriptRedacted).
import Type, { type Static } from 'typebox';
import { bool, dateTime, num, open, opt, str } from '../fields.js';

export const TranscriptShape = open(
  {
    format: opt(str()),
    job: opt(
      open({
        created_at: opt(dateTime()),
        data_name: opt(str()),
        duration: opt(num()),
        id: opt(str()),
        tracking: opt(open({ reference: opt(str()) })),
      }),
    ),
    metadata: opt(
      open({
        created_at: opt(dateTime()),
        transcription_config: opt(open({ diarization: opt(str()), language: opt(str()) })),
        type: opt(str()),
      }),
    ),
    results: opt(
      Type.Array(
        open({
          alternatives: opt(
            Type.Array(open({ confidence: opt(num()), content: opt(str()), language: opt(str()), speaker: opt(str()) })),
          ),
          end_time: opt(num()),
          start_time: opt(num()),
          type: opt(str()),
          channel: opt(str()),
          is_eos: opt(bool()),
        }),
      ),
    ),
  },
  { title: 'transcript', description: 'Resource 8.' },
);
export type TranscriptShape = Static<typeof TranscriptShape>;
