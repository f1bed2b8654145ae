// Results written back to a bucket, before the job is marked completed (a bucket out of reach makes the job
// wait and try again, as a fetch does). Layout, under the output folder (`transcriptOutput`, else the
// settings' `folder` for a job from a bucket):
//   <folder>/<job id>/transcript.<format>.json|.txt|.srt|.vtt   each shape asked for (outputFormats; default vendorA, transcript)
//   <folder>/<job id>/redacted<ext>                             the redacted recording, when audio redaction ran
//   <folder>/<job id>/job.json                                  the job record (credentials masked)
// The unredacted original is never written there: only a checked redacted copy is.
import path from 'node:path';
import type { SecretBox } from '../../security/secretBox.js';
import { type BlobStore, blobKey } from '../../store/blobs/index.js';
import type { JobRow } from '../../store/tables.js';
import { renderTranscript, type TranscriptFormat, transcriptFileName } from '../../transcript/index.js';
import type { Transcript } from '../../transcript/types.js';
import { jobRecord } from '../jobRecord.js';
import { deliveryVerdict } from '../originalsGuard.js';
import { renderMetaForJob } from '../renderMeta.js';
import type { TranscribeParams } from '../request.js';
import type { CloudBuckets } from './buckets.js';
import { type BucketRef, outputFolderName, parseFolder } from './location.js';

export const DEFAULT_OUTPUT_FORMATS: TranscriptFormat[] = ['vendorA', 'transcript'];

export interface ResultExporterOptions {
  blobs: BlobStore;
  buckets: CloudBuckets;
  box: SecretBox;
}

/** Where a job's results go, or undefined when nowhere: its own folder inside the output folder. */
export async function outputFolder(params: TranscribeParams, buckets: CloudBuckets, jobId: string): Promise<BucketRef | undefined> {
  const settings = await buckets.settingsFor(params);
  const named = outputFolderName(params, settings);
  if (!named) return undefined;
  const folder = parseFolder(named, 'transcriptOutput', settings.bucket);
  return { bucket: folder.bucket, key: `${folder.key}${jobId}/` };
}

export function resultExporter(options: ResultExporterOptions) {
  return async (job: JobRow, transcript: Transcript, redactionRecord: unknown, signal: AbortSignal): Promise<void> => {
    const params = JSON.parse(job.params) as TranscribeParams;
    const folder = await outputFolder(params, options.buckets, job.id);
    if (!folder) return;
    const bucket = await options.buckets.bucket(folder.bucket, params, 'transcriptOutput');
    // A job that owes redaction exports only what was redacted (the bucket is a client's, read without a key).
    const verdict = deliveryVerdict(job, 'completed', redactionRecord !== undefined, 'transcript');
    if ('refuse' in verdict) throw Object.assign(new Error(`results not exported: ${verdict.refuse.message}`), { permanent: true });
    const meta = renderMetaForJob(job, options.box);
    for (const format of params.outputFormats ?? DEFAULT_OUTPUT_FORMATS) {
      const rendered = renderTranscript(format, transcript, meta);
      const body = typeof rendered.body === 'string' ? rendered.body : JSON.stringify(rendered.body);
      await bucket.put(blobKey(folder.key, transcriptFileName('transcript', format)), body);
      signal.throwIfAborted();
    }
    // Only a redacted copy (written and checked by audio redaction) goes back; never the original.
    const copy = (redactionRecord as { audio?: { path?: string } } | undefined)?.audio?.path;
    if (copy) await bucket.put(blobKey(folder.key, `redacted${path.extname(copy)}`), await options.blobs.get(copy));
    const record = jobRecord({ ...job, status: 'completed', redaction_status: redactionRecord ? 'completed' : job.redaction_status }, options.box);
    await bucket.put(blobKey(folder.key, 'job.json'), JSON.stringify(record));
  };
}

/**
 * Remove what a job wrote to its output folder (the job is deleted: retention, DELETE); answers the folder
 * ("s3://bucket/prefix/", no credentials), or undefined when it wrote nowhere. Throws with the folder named.
 */
export async function removeExported(job: JobRow, buckets: CloudBuckets): Promise<string | undefined> {
  const params = JSON.parse(job.params) as TranscribeParams;
  const folder = await outputFolder(params, buckets, job.id).catch(() => undefined);
  if (!folder) return undefined;
  const where = `s3://${folder.bucket}/${folder.key}`;
  try {
    await (await buckets.bucket(folder.bucket, params, 'transcriptOutput')).deletePrefix(folder.key);
  } catch (error) {
    throw new Error(`${where} was not removed: ${(error as Error).message}`);
  }
  return where;
}
