// What a notification carries besides the terminal event and the job (`notification.contents`, as Speechmatics'
// notification_config.contents): the transcript in the shapes asked. Only a transcript the job may hand out is
// included: the job completed and its redaction, when one was asked, completed too; the stored transcript is
// then the redacted one (the redaction core replaced the words before it was written), so no unredacted value
// can reach a notification. Otherwise `transcripts` is absent and `transcriptsWithheld` says why. A notification
// goes to a client without a key: the originals guard's verdict for a non-admin reader decides (originalsGuard.ts).
import type { Transcript } from '../../transcript/types.js';
import { NOTIFICATION_CONTENTS, type NotificationContent } from '../../schema/resources/notificationContents.js';
import { renderTranscript, type RenderMeta } from '../../transcript/index.js';
import { deliveryVerdict } from '../originalsGuard.js';


export interface ContentsInput {
  jobId: string;
  contents: readonly string[] | undefined;
  status: string;
  redactionStatus: string;
  transcript: Transcript | undefined;
  meta: RenderMeta;
}

/** The payload fields `contents` adds: `transcripts` keyed by content name, or why they were withheld. */
export function notificationContents(input: ContentsInput): Record<string, unknown> {
  const asked = [...new Set(input.contents ?? [])].filter((c): c is NotificationContent => Object.hasOwn(NOTIFICATION_CONTENTS, c));
  const formats = asked.filter((c) => NOTIFICATION_CONTENTS[c] !== undefined);
  if (formats.length === 0) return {};
  const verdict = deliveryVerdict({ id: input.jobId, redaction_status: input.redactionStatus }, input.status, input.redactionStatus === 'completed', 'transcript');
  let withheld: string | undefined;
  if (input.status !== 'completed') withheld = `the job is ${input.status}`;
  else if ('refuse' in verdict) withheld = `its redaction is ${input.redactionStatus}`;
  else if (!input.transcript) withheld = 'the job has no stored transcript';
  if (withheld || !input.transcript) return { transcriptsWithheld: withheld };
  const transcripts: Record<string, unknown> = {};
  for (const content of formats) transcripts[content] = renderTranscript(NOTIFICATION_CONTENTS[content]!, input.transcript, input.meta).body;
  return { transcripts };
}
