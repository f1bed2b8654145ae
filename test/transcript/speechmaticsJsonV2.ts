// What a strict Speechmatics json-v2 reader requires (their published RetrieveTranscriptResponse schema:
// required fields and types of JobInfo, RecognitionMetadata, TranscriptionConfig, RecognitionResult and
// RecognitionAlternative), as a JSON Schema to validate our `transcript` shape against.
export const STRICT_JSON_V2 = {
  type: 'object',
  required: ['format', 'job', 'metadata', 'results'],
  properties: {
    format: { type: 'string' },
    job: {
      type: 'object',
      required: ['created_at', 'data_name', 'duration', 'id'],
      properties: {
        created_at: { type: 'string', format: 'date-time' },
        data_name: { type: 'string' },
        duration: { type: 'integer', minimum: 0 },
        id: { type: 'string' },
        tracking: { type: 'object' },
      },
    },
    metadata: {
      type: 'object',
      required: ['created_at', 'type'],
      properties: {
        created_at: { type: 'string', format: 'date-time' },
        type: { enum: ['transcription', 'alignment'] },
        transcription_config: { type: 'object', required: ['language'], properties: { language: { type: 'string' } } },
      },
    },
    results: {
      type: 'array',
      items: {
        type: 'object',
        required: ['start_time', 'end_time', 'type'],
        properties: {
          channel: { type: 'string' },
          start_time: { type: 'number' },
          end_time: { type: 'number' },
          is_eos: { type: 'boolean' },
          type: { enum: ['word', 'punctuation', 'entity'] },
          attaches_to: { enum: ['previous', 'next', 'both', 'none'] },
          alternatives: {
            type: 'array',
            items: {
              type: 'object',
              required: ['content', 'confidence', 'language'],
              properties: { content: { type: 'string' }, confidence: { type: 'number' }, language: { type: 'string' }, speaker: { type: 'string' } },
            },
          },
        },
      },
    },
  },
} as const;
