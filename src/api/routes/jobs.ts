// POST /asr/transcribe and the job resources under /asr/jobs: submit audio (multipart) or text (JSON),
// resubmit with new parameters, read, wait, list, cancel, delete, and fetch transcripts and audio.
import fs from 'node:fs';
import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { ServiceError, invalid, notFound } from '../../errors.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { BlobNotFoundError, BlobUnavailableError, keyName } from '../../store/blobs/index.js';
import { uploadTempDir } from '../../jobs/orphanUploads.js';
import { TERMINAL } from '../../store/jobs.js';
import type { JobRow } from '../../store/tables.js';
import type { Services } from '../../services.js';
import { idString, isoParam, isoTime, paging } from '../../schema/bounds.js';
import { JOB_STATUSES } from '../../schema/job.js';
import { ref } from '../../schema/registry.js';
import { responses, VALIDATED_IN_HANDLER, withHeaders } from '../schemas.js';
import { transcriptResponse } from '../transcriptResponse.js';
import { assertFileName } from '../inputGuard.js';
import { discard, rawAudioParser, readTranscribeInput, transcribeBody, type UploadedFile } from './transcribeInput.js';
import { extractRecordings } from '../../audio/unzip.js';
import { TranscribeParams } from '../../jobs/request.js';
import { readerOf } from '../../jobs/originalsGuard.js';
import { renderMetaForJob } from '../../jobs/renderMeta.js';
import { renderTranscript, transcriptFileName, TRANSCRIPT_FORMATS, type TranscriptFormat } from '../../transcript/index.js';


interface JobListParams {
  status?: (typeof JOB_STATUSES)[number];
  tracking_id?: string;
  sid?: string;
  callSid?: string;
  from?: string;
  to?: string;
  cursor?: string;
  limit: number;
  offset: number;
}

const AUDIO_TYPES: Record<string, string> = {
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.flac': 'audio/flac',
  '.ogg': 'audio/ogg',
  '.opus': 'audio/ogg',
  '.m4a': 'audio/mp4',
};

export function jobRoutes(services: Services): FastifyPluginAsync {
  const tags = ['jobs'];
  const jobs = services.jobs;

  const JobParams = Type.Object({ jobId: idString() });
  const JOB_LOCATION = Type.String({ description: 'The job: /asr/jobs/{jobId}. Absent on a jobBatch (each job carries its jobId).' });

  async function answerJob(request: FastifyRequest, reply: FastifyReply, row: JobRow, created: boolean) {
    const record = await services.jobRecords.record(row, { reader: readerOf(request.apiKey) });
    reply.header('location', `/asr/jobs/${row.id}`);
    reply.code(TERMINAL.includes(row.status as never) ? 200 : created ? 202 : 200);
    return record;
  }

  /**
   * Every recording inside the uploaded zips, as uploads of their own. Unpacking takes a turn of its own
   * (SCRUBLINE_UNZIP_CONCURRENCY; none free: 503 + Retry-After) and the caps count every zip of the request.
   */
  async function unzipAll(zips: UploadedFile[], tempDir: string): Promise<UploadedFile[]> {
    const limits = services.config.uploads;
    return services.uploads.unzip.run(async () => {
      const out: UploadedFile[] = [];
      try {
        for (const zip of zips) {
          const unpacked = out.reduce((sum, f) => sum + f.bytes, 0);
          const entries = await extractRecordings(zip.tempPath, tempDir, {
            maxEntries: limits.zipMaxEntries - out.length,
            maxTotalBytes: limits.zipMaxBytes - unpacked,
            maxEntryBytes: limits.zipMaxEntryBytes,
            maxSeconds: services.config.limits.audioSeconds,
          });
          out.push(...entries.map((e) => ({ tempPath: e.path, fileName: e.name, bytes: fs.statSync(e.path).size })));
        }
      } catch (error) {
        discard(out);
        throw error;
      }
      return out;
    });
  }

  return async (app) => {
    await app.register(multipart, { limits: { fileSize: services.config.limits.uploadBytes } });
    // A recording may also be the whole body (audio/*, application/octet-stream), parameters in the query.
    const parseRaw = rawAudioParser(uploadTempDir(services.config.dataDir), services.config.limits.uploadBytes);
    for (const type of ['application/octet-stream', /^audio\//]) {
      app.addContentTypeParser(type, { bodyLimit: Number.MAX_SAFE_INTEGER }, (request, payload, done) => {
        parseRaw(request, payload).then((body) => done(null, body), (error: Error) => done(error, undefined));
      });
    }

    app.post(
      '/asr/transcribe',
      {
        config: { scope: 'submit' },
        schema: {
          operationId: 'transcribe',
          tags: ['engine', ...tags],
          summary: 'Submit recordings (multipart/form-data) or a text transcript (JSON) for transcription and redaction',
          description:
            'Audio: one or more file parts plus parameter fields (model, numtrans, sid, notification, priority...). ' +
            'Text: a JSON body with `text`. Resubmit: `jobId` of a finished job with new parameters. ' +
            'Answers 202 with the job (Location: /asr/jobs/{jobId}); with `wait=N` it blocks up to N seconds and answers 200 when done.',
          // Parameters come as query, form fields or JSON, so the handler validates them (text coerced).
          querystring: { ...TranscribeParams, [VALIDATED_IN_HANDLER]: true },
          body: transcribeBody(),
          response: responses(
            {
              200: withHeaders(ref('Job'), { Location: JOB_LOCATION }),
              202: withHeaders(Type.Union([ref('Job'), ref('JobBatch')], { description: 'The job; several recordings (or some refused): a jobBatch.' }), {
                Location: JOB_LOCATION,
              }),
            },
            [400, 404, 409, 413, 415, 422, 503],
          ),
        },
      },
      async (request, reply) => {
        const tempDir = uploadTempDir(services.config.dataDir);
        const { params, files } = await readTranscribeInput(request, tempDir, services.config.limits.uploadBytes);
        // The key's scope decides whether a project's required redaction may be lowered (admin only).
        const caller = { scope: request.apiKey?.scope, keyId: request.apiKey?.id };
        let rows: JobRow[];
        const rejected: Record<string, unknown>[] = [];
        // A transcript from a bucket is the job's one input: beside another, which one to run is not for us to guess.
        const others = [files.length > 0 && 'a file', params.text !== undefined && 'text', params.cloudStoragePath && 'cloudStoragePath', params.cloudStorageFolder && 'cloudStorageFolder'].filter(Boolean);
        if (params.transcriptInput && others.length > 0) {
          discard(files);
          throw invalid(`transcriptInput names the job's transcript; it cannot come with ${others.join(' or ')}.`, [{ pointer: '/transcriptInput', path: 'transcriptInput', message: 'must be the only input of the job' }]);
        }
        if (params.jobId) {
          discard(files);
          rows = [await jobs.resubmit(params.jobId, params, caller)];
        } else if (files.length > 0) {
          rows = [];
          let recordings: UploadedFile[] = [];
          try {
            // A zip (isZip) is unpacked: one job per recording in it. In a batch a file that is not usable
            // is reported beside the jobs of the others, not fatal to them.
            recordings = params.isZip ? await unzipAll(files, tempDir) : files;
            for (const file of recordings) assertFileName(file.fileName);
            // One turn for the request's recordings (SCRUBLINE_PROBE_CONCURRENCY/QUEUE): a request is admitted
            // whole or answered 503 + Retry-After before any of its jobs exists, so a retry duplicates nothing.
            await services.uploads.probe.run(async () => {
              for (const file of recordings) {
                try {
                  rows.push(await jobs.submitAudio(file.tempPath, file.fileName, params, caller));
                } catch (error) {
                  if (recordings.length === 1 || !(error instanceof ServiceError) || error.kind === 'invalid') throw error;
                  rejected.push({ fileName: file.fileName, status: error.kind, detail: error.message, ...error.extra });
                }
              }
            });
            if (rows.length === 0 && rejected.length > 0) throw new ServiceError('unprocessable', `None of the ${recordings.length} recordings is usable audio.`, [], { rejected });
          } finally {
            discard([...files, ...recordings].filter((f) => fs.existsSync(f.tempPath)));
          }
        } else if (params.cloudStorageFolder) {
          // A bucket folder: listed here, each recording fetched by a worker.
          rows = await jobs.submitFolder(params, caller);
        } else if (params.cloudStoragePath) {
          rows = [await jobs.submitRemote(params, caller)];
        } else if (params.transcriptInput) {
          // A transcript in a bucket: read by a worker, then a text job like one sent with `text`.
          rows = [await jobs.submitRemoteText(params, caller)];
        } else {
          rows = [await jobs.submitText(params, caller)];
        }
        if (rows.length > 1 || rejected.length > 0) {
          reply.code(202);
          return { jobs: await Promise.all(rows.map((row) => services.jobRecords.record(row, { reader: readerOf(request.apiKey) }))), ...(rejected.length > 0 && { rejected }) };
        }
        const row = params.wait ? await jobs.waitFor(rows[0].id, params.wait) : rows[0];
        return answerJob(request, reply, row, true);
      },
    );

    app.get<{ Querystring: JobListParams }>(
      '/asr/jobs',
      {
        config: { scope: 'read' },
        schema: {
          operationId: 'listJobs',
          tags,
          summary: 'Jobs, newest first, filtered and paged',
          description:
            'Filters combine (all must match): `status`, `tracking_id` (the reference given at submit), `sid` (the project), `callSid` (the telephony call), ' +
            '`from` (created at or after) and `to` (created before), ISO times or dates. `total` counts the matching jobs. ' +
            'Paging: `limit` with `offset`, or `cursor` (the previous answer\'s `nextCursor`, stable while jobs are added or deleted; ' +
            '`nextCursor` is null on the last page). A parameter not listed here is refused (400).',
          querystring: Type.Object({
            status: Type.Optional(Type.Enum([...JOB_STATUSES])),
            tracking_id: Type.Optional(idString({ description: 'Only jobs submitted with this tracking_id.' })),
            sid: Type.Optional(idString({ description: 'Only jobs of this project.' })),
            callSid: Type.Optional(idString({ description: "Only jobs of this telephony call (submitted with callSid; a Twilio stream's after-call job)." })),
            from: Type.Optional(isoTime('Only jobs created at or after this time (ISO 8601 date-time, or a date: its midnight UTC).')),
            to: Type.Optional(isoTime('Only jobs created before this time (ISO 8601 date-time, or a date: its midnight UTC).')),
            cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, pattern: '^[A-Za-z0-9_-]+$', description: 'nextCursor of the previous page.' })),
            ...paging(500, 50),
          }),
          response: responses({
            200: Type.Object({
              total: Type.Integer(),
              limit: Type.Integer(),
              offset: Type.Integer(),
              nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null on the last page.' }),
              jobs: Type.Array(ref('Job')),
            }),
          }),
        },
      },
      async (request) => {
        const { status, limit, offset, cursor } = request.query;
        if (cursor !== undefined && offset > 0) throw invalid('cursor and offset are alternatives: page with one of them.', [{ pointer: '/query/offset', path: 'query.offset', message: 'must be 0 with a cursor' }]);
        const from = isoParam(request.query.from, 'from');
        const to = isoParam(request.query.to, 'to');
        const position = cursor !== undefined ? decodeCursor(cursor, ['createdAt', 'id'] as const) : undefined;
        const page = await jobs.list({ status, trackingId: request.query.tracking_id, sid: request.query.sid, callSid: request.query.callSid, from, to, after: position, limit: limit + 1, offset });
        const rows = page.jobs.slice(0, limit);
        const last = rows.at(-1);
        const nextCursor = page.jobs.length > limit && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null;
        return { total: page.total, limit, offset, nextCursor, jobs: await services.jobRecords.briefRecords(rows) };
      },
    );

    app.get<{ Params: { jobId: string }; Querystring: { wait?: number } }>(
      '/asr/jobs/:jobId',
      {
        config: { scope: 'read' },
        schema: {
          operationId: 'getJob',
          tags,
          summary: 'A job (processJob, resource 6) with its transcript shapes once complete',
          params: JobParams,
          querystring: Type.Object({ wait: Type.Optional(Type.Integer({ minimum: 0, maximum: 600, description: 'Block up to N seconds for a terminal state.' })) }),
          response: responses({ 200: ref('Job') }, [400, 404]),
        },
      },
      async (request) => {
        const row = request.query.wait ? await jobs.waitFor(request.params.jobId, request.query.wait) : await jobs.get(request.params.jobId);
        return services.jobRecords.record(row, { reader: readerOf(request.apiKey) });
      },
    );

    app.post<{ Params: { jobId: string } }>(
      '/asr/jobs/:jobId/cancel',
      {
        config: { scope: 'submit' },
        schema: { operationId: 'cancelJob', tags, summary: 'Cancel a queued or running job', params: JobParams, response: responses({ 200: ref('Job') }, [404, 409]) },
      },
      async (request) => services.jobRecords.record(await jobs.cancel(request.params.jobId), { reader: readerOf(request.apiKey) }),
    );

    app.delete<{ Params: { jobId: string } }>(
      '/asr/jobs/:jobId',
      {
        config: { scope: 'submit' },
        schema: { operationId: 'deleteJob', tags, summary: "Delete a job's audio, transcript and record", params: JobParams, response: responses({ 204: Type.Null() }, [404]) },
      },
      async (request, reply) => {
        await jobs.delete(request.params.jobId);
        return reply.code(204).send();
      },
    );

    app.get<{ Params: { jobId: string }; Querystring: { format: TranscriptFormat; redacted?: boolean; download?: boolean } }>(
      '/asr/jobs/:jobId/transcript',
      {
        config: { scope: 'read' },
        schema: {
          operationId: 'getJobTranscript',
          tags,
          summary: "A completed job's transcript in one of the shapes: vendorA, vendorB, transcript (json-v2), utterances (resource 11), text, srt, vtt",
          description:
            'A job that owes redaction gives a non-admin key its transcript only once redacted: 409 (reason redaction_pending) while queued ' +
            'or running, 403 (reason redaction_not_done) once failed, cancelled or completed unredacted; an admin read of an unredacted ' +
            'transcript is recorded as an event (original_transcript_read).',
          params: JobParams,
          querystring: Type.Object({
            format: Type.Optional(Type.Enum([...TRANSCRIPT_FORMATS], { default: 'vendorA' })),
            redacted: Type.Optional(Type.Boolean({ description: 'The redacted transcript (once text redaction ran).' })),
            download: Type.Optional(Type.Boolean({ description: 'Answer as a file attachment.' })),
          }),
          response: responses({ 200: transcriptResponse() }, [400, 403, 404, 409]),
        },
      },
      async (request, reply) => {
        const row = await jobs.get(request.params.jobId);
        // A job that owes redaction: a non-admin key gets its transcript once redacted (409/403 before).
        await services.originals.transcript(row, readerOf(request.apiKey), true);
        if (row.status !== 'completed') throw new ServiceError('conflict', `Job ${row.id} is ${row.status}; its transcript exists once it is completed.`);
        if (request.query.redacted && !(await services.store.jobs.redaction(row.id))) {
          throw new ServiceError('conflict', `Job ${row.id} has no redacted transcript: text redaction was not asked for (scrubtext, types or the project's rules).`);
        }
        const transcript = await services.jobRecords.transcript(row);
        if (!transcript) throw notFound(`Job ${row.id} has no stored transcript.`);
        const rendered = renderTranscript(request.query.format, transcript, renderMetaForJob(row, services.box));
        reply.type(rendered.contentType);
        if (request.query.download) reply.header('content-disposition', `attachment; filename="${transcriptFileName(row.id, request.query.format)}"`);
        return rendered.body;
      },
    );

    app.get<{ Params: { jobId: string }; Querystring: { redacted?: boolean } }>(
      '/asr/jobs/:jobId/audio',
      {
        config: { scope: 'read' },
        schema: {
          operationId: 'getJobAudio',
          tags,
          summary: "The job's recording: once audio redaction ran, the redacted copy",
          description:
            'Without `redacted` (or redacted=true) a job whose audio was redacted (scrubaudio) answers its redacted copy. ' +
            'Its original is deleted once the copy is written and checked, unless the request or project set `keepOriginal`; ' +
            'a kept original is answered to redacted=false for admin-scope keys only (403 to others), and each read is recorded as an event ' +
            '(type job, subType original_audio_read). A job that owes redaction (it asked for any, or its project requires it) gives a ' +
            'non-admin key no original at all: 409 (reason redaction_pending) while queued or running, 403 (reason redaction_not_done) once ' +
            'failed or cancelled, or completed without a redacted recording (scrubtext only); an admin key gets the original, on the record.',
          params: JobParams,
          querystring: Type.Object({
            redacted: Type.Optional(Type.Boolean({ description: 'true: the redacted copy (409 when audio redaction has not run); false: the original (admin only once redacted).' })),
          }),
          produces: ['audio/*'],
          response: responses({ 200: Type.String({ description: 'The audio file', contentMediaType: 'audio/*' }) }, [403, 404, 409]),
        },
      },
      async (request, reply) => {
        const row = await jobs.get(request.params.jobId);
        // Which recording, if any, this key may have (jobs/originalsGuard.ts: the one rule for originals).
        const relative = await services.originals.audio(row, readerOf(request.apiKey), request.query.redacted);
        const blob = relative ? await readingStore(() => services.blobs.head(relative)) : undefined;
        if (!relative || !blob) throw notFound(`Job ${row.id} has no stored audio.`);
        reply.type(AUDIO_TYPES[path.extname(relative).toLowerCase()] ?? 'application/octet-stream');
        reply.header('content-disposition', `attachment; filename="${keyName(relative)}"`);
        reply.header('accept-ranges', 'bytes');
        // One byte range (a player seeking): 206 with that part, streamed from the store. Other ranges (several,
        // or outside the recording) are ignored, as HTTP allows: the whole recording is answered.
        const range = byteRange(request.headers.range, blob.size);
        if (range) {
          reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${blob.size}`).header('content-length', String(range.end - range.start + 1));
          return reply.send(await readingStore(() => services.blobs.get(relative, range)));
        }
        reply.header('content-length', String(blob.size));
        return reply.send(await readingStore(() => services.blobs.get(relative)));
      },
    );
  };
}

/** One `bytes=a-b` range of a blob of `size` bytes; undefined for none, several or one outside the blob. */
function byteRange(header: string | undefined, size: number): { start: number; end: number } | undefined {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (match[1] === '') {
    // bytes=-N: the last N bytes.
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (!Number.isSafeInteger(start) || start >= size || end < start) return undefined;
  return { start, end };
}

/** A store that cannot be reached is a 503 (try again), a blob gone meanwhile a 404. */
async function readingStore<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BlobNotFoundError) throw notFound('The stored audio is gone.');
    if (error instanceof BlobUnavailableError) {
      throw new ServiceError('unavailable', `The storage is unavailable (${error.message}); try again.`, [], { reason: 'storage_unavailable', retryable: true, retryAfter: 30 });
    }
    throw error;
  }
}
