// The answer of GET /asr/jobs/{jobId}/transcript, one schema per media type: the JSON shapes under
// application/json, the text shapes (text, srt, vtt) under their own media types, as the route sends them.
import Type, { type TSchema } from 'typebox';
import { ref } from '../schema/registry.js';
import { CONTENT_TYPES, TRANSCRIPT_FORMATS, type TranscriptFormat } from '../transcript/index.js';
import { mediaTypes } from './schemas.js';

const SHAPES: Record<TranscriptFormat, TSchema> = {
  vendorA: ref('VendorATranscript'),
  vendorB: ref('VendorBTranscript'),
  transcript: ref('TranscriptShape'),
  utterances: Type.Array(ref('Utterance')),
  text: Type.String({ description: 'One line per utterance' }),
  srt: Type.String({ description: 'SubRip subtitles' }),
  vtt: Type.String({ description: 'WebVTT subtitles' }),
};

export function transcriptResponse(): TSchema {
  const byMediaType = new Map<string, TranscriptFormat[]>();
  for (const format of TRANSCRIPT_FORMATS) {
    const mediaType = CONTENT_TYPES[format].split(';')[0].trim();
    byMediaType.set(mediaType, [...(byMediaType.get(mediaType) ?? []), format]);
  }
  const schemas = Object.fromEntries(
    [...byMediaType].map(([mediaType, formats]) => {
      const described = `format=${formats.join(', ')}`;
      const schema = formats.length === 1 ? { ...SHAPES[formats[0]], description: `${described}: ${(SHAPES[formats[0]] as { description?: string }).description ?? formats[0]}` } : Type.Union(formats.map((f) => SHAPES[f]), { description: described });
      return [mediaType, schema];
    }),
  );
  return mediaTypes('The transcript in the requested format, in the media type of that format', schemas);
}
