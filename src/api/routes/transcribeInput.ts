// Reading a POST /asr/transcribe request: multipart form data (audio parts streamed to disk, parameter
// fields) or JSON (a text transcript, or a jobId to resubmit), plus parameters in the query string. Text
// values are coerced to the declared parameter types; anything wrong is a 400 naming the field. `types`, in
// any spelling the policy accepts (JSON array, JSON array string, comma list, repeated fields), becomes the
// canonical kind names; query and body are combined: kinds are the union, a scrub flag is on if either sets it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type {} from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import { ServiceError, invalid } from '../../errors.js';
import { TranscribeParams } from '../../jobs/request.js';
import { parseKinds } from '../../redact/policy.js';
import { parseMarksField } from '../../redact/windows/marks.js';
import { check, checkText } from '../../schema/validator.js';
import { VALIDATED_IN_HANDLER } from '../schemas.js';

export interface UploadedFile {
  tempPath: string;
  fileName: string;
  bytes: number;
}

export interface TranscribeInput {
  params: TranscribeParams;
  files: UploadedFile[];
}

/** Most file parts one request may carry. */
const MAX_FILE_PARTS = 50;

const LIST_FIELDS = new Set(['types', 'insights']);
const SCRUB_FLAGS = ['scrubtext', 'scrubaudio'] as const;

/** Form and query values are strings: lists may come comma-separated or as JSON, objects as JSON. */
function normalizeTextFields(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const notification: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(fields)) {
    const value = Array.isArray(raw) && raw.length === 1 && !LIST_FIELDS.has(key) ? raw[0] : raw;
    if (key.startsWith('notification.')) {
      const sub = key.slice('notification.'.length);
      notification[sub] = sub === 'auth_headers' ? ([] as unknown[]).concat(value) : value;
    } else if (key === 'notification' && typeof value === 'string') {
      try {
        out.notification = JSON.parse(value);
      } catch {
        throw invalid('notification must be a JSON object', [{ pointer: '/notification', path: 'notification', message: 'must be a JSON object' }]);
      }
    } else if (key === 'sensitiveWindows') {
      out.sensitiveWindows = parseMarksField(value);
    } else if (key === 'types' || key === 'types[]') {
      // `types[]` is how some clients name a repeated field: the same kinds, never an ignored field.
      out.types = parseKinds([...((out.types as string[] | undefined) ?? []), ...[value].flat()], 'types');
    } else if (LIST_FIELDS.has(key) && typeof value === 'string') {
      out[key] = value.trim().startsWith('[') ? safeJson(value, key) : value.split(',').map((v) => v.trim()).filter(Boolean);
    } else if (LIST_FIELDS.has(key) && Array.isArray(value)) {
      out[key] = value.flatMap((v) => String(v).split(',').map((x) => x.trim()).filter(Boolean));
    } else {
      out[key] = value;
    }
  }
  if (Object.keys(notification).length > 0) out.notification = { ...(out.notification as object), ...notification };
  return out;
}

function safeJson(value: string, key: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    throw invalid(`${key} must be a JSON array or a comma-separated list`, [{ pointer: `/${key}`, path: key, message: 'must be a list' }]);
  }
}

/**
 * Query parameters with the body's (form fields or JSON): the body's win, except that the kinds are the
 * union of both and a scrub flag set on in either place stays on — a redaction asked for is never dropped.
 */
export function combineParams(query: TranscribeParams, body: TranscribeParams): TranscribeParams {
  const out: TranscribeParams = { ...query, ...body };
  if (query.types !== undefined || body.types !== undefined) out.types = parseKinds([...(query.types ?? []), ...(body.types ?? [])]);
  // Marked windows from both places: a window marked is never dropped.
  if (query.sensitiveWindows && body.sensitiveWindows) out.sensitiveWindows = [...query.sensitiveWindows, ...body.sensitiveWindows];
  for (const flag of SCRUB_FLAGS) {
    if (query[flag] === true || body[flag] === true) out[flag] = true;
  }
  return out;
}

/** A JSON body's `types` may also be a comma list or a JSON array string: the same kinds, canonical. */
function withKinds(body: Record<string, unknown>): Record<string, unknown> {
  return body.types === undefined ? body : { ...body, types: parseKinds(body.types, 'types') };
}

function validated(params: Record<string, unknown>, text: boolean): TranscribeParams {
  const issues = text ? checkText(TranscribeParams, params) : check(TranscribeParams, params);
  if (issues.length > 0) throw invalid(`${issues[0].path} ${issues[0].message}`, issues);
  return params as TranscribeParams;
}

/** A raw audio body (audio/*, application/octet-stream), streamed to a temporary file by the parser below. */
export interface RawUpload {
  rawUpload: UploadedFile;
}

function isRawUpload(body: unknown): body is RawUpload {
  return typeof body === 'object' && body !== null && 'rawUpload' in body;
}

/** Streams a raw audio body to disk, counting bytes: over the limit is a 413, never a full disk. */
export function rawAudioParser(tempDir: string, maxBytes: number) {
  return async (request: FastifyRequest, payload: NodeJS.ReadableStream): Promise<RawUpload> => {
    fs.mkdirSync(tempDir, { recursive: true });
    const tempPath = path.join(tempDir, `${crypto.randomUUID()}.upload`);
    let bytes = 0;
    const counted = async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        bytes += chunk.length;
        if (bytes > maxBytes) throw new ServiceError('too_large', `The upload is larger than the limit of ${maxBytes} bytes.`);
        yield chunk;
      }
    };
    try {
      await pipeline(payload as unknown as AsyncIterable<Buffer>, counted, fs.createWriteStream(tempPath));
    } catch (error) {
      fs.rmSync(tempPath, { force: true });
      throw error;
    }
    const disposition = /filename="?([^";]+)"?/i.exec(String(request.headers['content-disposition'] ?? ''))?.[1];
    const query = request.query as Record<string, unknown>;
    const fileName = typeof query.fileName === 'string' ? query.fileName : disposition ?? 'audio';
    return { rawUpload: { tempPath, fileName, bytes } };
  };
}

export async function readTranscribeInput(request: FastifyRequest, tempDir: string, maxBytes: number): Promise<TranscribeInput> {
  const query = normalizeTextFields({ ...(request.query as Record<string, unknown>) });
  if (isRawUpload(request.body)) {
    const upload = request.body.rawUpload;
    try {
      return { params: validated(query, true), files: [upload] };
    } catch (error) {
      discard([upload]);
      throw error;
    }
  }
  if (!request.isMultipart()) {
    const body = request.body;
    if (body === undefined || body === null) return { params: validated(query, true), files: [] };
    if (typeof body !== 'object' || Array.isArray(body)) {
      throw invalid('The JSON body must be an object of parameters.', [{ pointer: '/', path: '(root)', message: 'must be object' }]);
    }
    const fromQuery = validated(query, true);
    return { params: combineParams(fromQuery, validated(withKinds(body as Record<string, unknown>), false)), files: [] };
  }

  fs.mkdirSync(tempDir, { recursive: true });
  const files: UploadedFile[] = [];
  const fields: Record<string, unknown[]> = {};
  try {
    for await (const part of request.parts({ limits: { fileSize: maxBytes, files: MAX_FILE_PARTS, fields: 200 } })) {
      if (part.type === 'file') {
        const tempPath = path.join(tempDir, `${crypto.randomUUID()}.upload`);
        files.push({ tempPath, fileName: part.filename || 'audio', bytes: 0 });
        await pipeline(part.file, fs.createWriteStream(tempPath));
        if (part.file.truncated) {
          throw new ServiceError('too_large', `${part.filename || 'The upload'} is larger than the limit of ${maxBytes} bytes.`);
        }
        files[files.length - 1].bytes = fs.statSync(tempPath).size;
      } else {
        (fields[part.fieldname] ??= []).push(part.value);
      }
    }
  } catch (error) {
    discard(files);
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new ServiceError('too_large', `An upload is larger than the limit of ${maxBytes} bytes.`);
    if (code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') throw invalid((error as Error).message);
    if (error instanceof ServiceError) throw error;
    if (code?.startsWith('FST_') || /multipart|boundary/i.test((error as Error).message)) {
      throw invalid(`The multipart body could not be read: ${(error as Error).message}`);
    }
    throw error;
  }
  try {
    const params = combineParams(validated(query, true), validated(normalizeTextFields(fields), true));
    return { params, files };
  } catch (error) {
    discard(files);
    throw error;
  }
}

export function discard(files: UploadedFile[]): void {
  for (const file of files) fs.rmSync(file.tempPath, { force: true });
}

/**
 * The request body as the OpenAPI document describes it, one schema per media type. The handler validates it
 * (readTranscribeInput: what applies depends on the body), so Fastify is told to let each through.
 */
export function transcribeBody() {
  const handled = { [VALIDATED_IN_HANDLER]: true };
  const { text: _text, ...fields } = TranscribeParams.properties;
  const recording = (mediaType: string) =>
    Type.String({ format: 'binary', contentMediaType: mediaType, description: 'The recording itself; its parameters in the query string (fileName names it).', ...handled });
  return {
    content: {
      'multipart/form-data': {
        schema: Type.Object(
          {
            audio: Type.Optional(
              // format: binary as well as contentMediaType: generated clients (openapi-typescript, openapi-generator)
              // type a file part by it, and accept a Blob or File there.
              Type.Array(Type.String({ format: 'binary', contentMediaType: 'application/octet-stream' }), {
                maxItems: MAX_FILE_PARTS,
                description: 'Recordings: one job each (a zip with isZip: one per recording inside). Any file part counts, whatever its field name.',
              }),
            ),
            ...fields,
          },
          {
            additionalProperties: true,
            description:
              'Recordings as file parts, parameters as fields (text; lists as repeated fields, a comma list or a JSON array; `notification` and `sensitiveWindows` as JSON or `notification.url` style fields).',
            ...handled,
          },
        ),
      },
      'application/json': { schema: { ...TranscribeParams, ...handled } },
      'audio/*': { schema: recording('audio/*') },
      'application/octet-stream': { schema: recording('application/octet-stream') },
    },
  };
}
