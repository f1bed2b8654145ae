// Plain text: one line per utterance in conversation order, the formatted text (numtrans/punctuate as asked),
// optionally prefixed with the speaker's label ("Agent: ...", "Caller: ..."). Lines end with "\n".
import { formatWords } from '../format.js';
import type { RenderMeta } from '../meta.js';
import { speakersOf } from '../roles.js';
import type { Transcript } from '../types.js';
import type { TranscriptUtterance } from '../utterances.js';

export function toPlainText(
  transcript: Pick<Transcript, 'channels'>,
  utterances: readonly TranscriptUtterance[],
  meta: RenderMeta = {},
): string {
  const speakers = speakersOf(transcript.channels.map((ch) => ch.channel), meta);
  const prefix = meta.speakerPrefix ?? transcript.channels.length > 1;
  return utterances
    .map((u) => {
      const text = formatWords(u.words, { numtrans: meta.numtrans, punctuate: meta.punctuate }).text;
      const label = speakers.get(u.channel)?.label;
      return `${prefix && label ? `${label}: ` : ''}${text}\n`;
    })
    .join('');
}
