// The values of `notification.contents` (as Speechmatics' notification_config.contents) and the transcript
// format each one asks for (jobs/notifications/contents.ts renders them).
/** The values of `notification.contents` and the transcript format each one asks for. */
export const NOTIFICATION_CONTENTS = {
  jobinfo: undefined, // the job record: always sent (accepted for compatibility)
  transcript: 'transcript', // json-v2
  'transcript.json-v2': 'transcript',
  'transcript.txt': 'text',
  'transcript.srt': 'srt',
  'transcript.vtt': 'vtt',
  'transcript.utterances': 'utterances',
  'transcript.vendorA': 'vendorA',
  'transcript.vendorB': 'vendorB',
} as const satisfies Record<string, string | undefined>;

export type NotificationContent = keyof typeof NOTIFICATION_CONTENTS;
