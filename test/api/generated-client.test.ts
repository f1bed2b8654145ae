// The API as an integrator uses it: a TypeScript client generated from the live /openapi.json (openapi-typescript
// for the types, openapi-fetch for the calls), type-checked with the TypeScript compiler, then run against a
// running server: a recording uploaded as multipart and a text job as JSON, each job's transcript fetched in
// every shape (JSON shapes parsed, text, SubRip and WebVTT as text), a project published, a post-call record
// stored and read back, the lists called without paging parameters. The client program is the SCENARIO below,
// written beside the generated types in a temporary folder; it compiles only if the document declares what it
// uses (operationIds, optional paging, the text media types, the jobBatch answer, the webhook).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { fullEventRecord } from '../fixtures/fullRecord.js';
import { devAudio, hasTool, speak } from '../helpers/audio.js';
import { json, startTestService, type TestService } from '../helpers/harness.js';
import { required } from '../helpers/require.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const canRun = hasTool('ffmpeg') && fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us');

/** The client program: typed by the generated `paths`, `components`, `operations` and `webhooks`. */
const SCENARIO = String.raw`
import createClient from 'openapi-fetch';
import type { components, operations, paths, webhooks } from './openapi.js';

type Job = components['schemas']['ProcessJob'];
type EventRecord = components['schemas']['EventRecord'];
/** The webhook's payload is an event record carrying the job. */
type Notification = NonNullable<webhooks['jobNotification']['post']['requestBody']>['content']['application/json'];
/** format is optional (its default is vendorA), and only the shapes the service knows are accepted. */
type Format = NonNullable<NonNullable<operations['getJobTranscript']['parameters']['query']>['format']>;

export const JSON_FORMATS = ['vendorA', 'vendorB', 'transcript', 'utterances'] as const satisfies readonly Format[];
export const TEXT_FORMATS = ['text', 'srt', 'vtt'] as const satisfies readonly Format[];

export interface Shapes {
  json: Record<(typeof JSON_FORMATS)[number], { contentType: string | null; body: unknown }>;
  text: Record<(typeof TEXT_FORMATS)[number], { contentType: string | null; body: string }>;
  defaultFormat: unknown;
}

export interface Outcome {
  audioJob: Job;
  audioShapes: Shapes;
  textJob: Job;
  textShapes: Shapes;
  listedJobIds: string[];
  publishedVersion: number;
  postCall: { status: number; stored: EventRecord; readBack: EventRecord };
  notificationType: string | undefined;
}

function must<T>(result: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (result.data === undefined) throw new Error(what + ' answered ' + result.response.status + ': ' + JSON.stringify(result.error));
  return result.data;
}

export async function run(baseUrl: string, recording: { bytes: Uint8Array; fileName: string }, record: EventRecord, projectConfig: object): Promise<Outcome> {
  const client = createClient<paths>({ baseUrl });

  async function shapesOf(jobId: string): Promise<Shapes> {
    const path = { jobId };
    const jsonShapes = {} as Shapes['json'];
    for (const format of JSON_FORMATS) {
      const result = await client.GET('/asr/jobs/{jobId}/transcript', { params: { path, query: { format } } });
      jsonShapes[format] = { contentType: result.response.headers.get('content-type'), body: must(result, 'transcript ' + format) };
    }
    const textShapes = {} as Shapes['text'];
    for (const format of TEXT_FORMATS) {
      const result = await client.GET('/asr/jobs/{jobId}/transcript', { params: { path, query: { format } }, parseAs: 'text' });
      const body: string = must(result, 'transcript ' + format);
      textShapes[format] = { contentType: result.response.headers.get('content-type'), body };
    }
    const byDefault = await client.GET('/asr/jobs/{jobId}/transcript', { params: { path } });
    return { json: jsonShapes, text: textShapes, defaultFormat: must(byDefault, 'transcript without format') };
  }

  // A recording as a multipart upload, waited for.
  const form = new FormData();
  form.append('audio', new Blob([new Uint8Array(recording.bytes)], { type: 'audio/wav' }), recording.fileName);
  form.append('numtrans', 'true');
  const uploaded = must(await client.POST('/asr/transcribe', { params: { query: { wait: 300 } }, body: {}, bodySerializer: () => form }), 'upload');
  if ('jobs' in uploaded) throw new Error('one recording made a batch');
  const audioJob: Job = uploaded;

  // A text job as JSON.
  const submitted = must(
    await client.POST('/asr/transcribe', {
      params: { query: { wait: 300 } },
      body: { text: 'Agent: thank you for calling, how can I help\nCaller: I would like to check my order', scrubtext: true },
    }),
    'text job',
  );
  if ('jobs' in submitted) throw new Error('one text made a batch');
  const textJob: Job = submitted;

  // The lists answer without paging parameters (limit and offset have defaults).
  const listed = must(await client.GET('/asr/jobs'), 'job list');
  const listedJobIds = listed.jobs.map((job) => String(job.jobId));

  // A project configuration published, then a post-call record stored and read back.
  const published = must(await client.POST('/system/cache/v2/publish', { body: { data: JSON.stringify(projectConfig) } }), 'publish');
  const stored = await client.POST('/system/cache/post-call', { body: record });
  const storedRecord = must(stored, 'post-call');
  const readBack = must(
    await client.GET('/system/cache/post-call/{eventId}', { params: { path: { eventId: String(storedRecord.eventId) } } }),
    'post-call read',
  );

  // What a notification receiver is typed with.
  const notification: Notification = { ...readBack, processJob: audioJob };

  return {
    audioJob,
    audioShapes: await shapesOf(String(audioJob.jobId)),
    textJob,
    textShapes: await shapesOf(String(textJob.jobId)),
    listedJobIds,
    publishedVersion: published.version,
    postCall: { status: stored.response.status, stored: storedRecord, readBack },
    notificationType: notification.type,
  };
}
`;

/** The project the post-call record's redactionRequest names (it must be published before the record is stored). */
const PROJECT = {
  sid: 'acme-support',
  name: 'Generated client project',
  active: true,
  scrubtext: true,
  rules: [{ name: 'USSocialSecurityNumber', active: true, mask_type: 'Placeholder', setting: '[SSN]', real_time: false }],
};

/** Type-check the client program with the TypeScript compiler (strict): the diagnostics as text. */
function typeCheck(dir: string): string[] {
  const program = ts.createProgram({
    rootNames: [path.join(dir, 'scenario.ts')],
    options: {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      types: [],
      skipLibCheck: true,
    },
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1} ` : '';
    return where + ts.flattenDiagnosticMessageText(d.messageText, '\n');
  });
}

describe('a client generated from /openapi.json', { skip: required(!canRun && 'ffmpeg or the PocketSphinx model is not installed') }, () => {
  let svc: TestService;
  let base: string;
  let dir: string;
  let doc: any;

  before(async () => {
    svc = await startTestService('sqlite');
    base = await svc.app.listen({ port: 0, host: '127.0.0.1' });
    doc = json(await svc.request({ method: 'GET', url: '/openapi.json' }));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-client-'));
    // The client's folder resolves openapi-fetch (and the compiler its types) from the project's packages.
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    fs.writeFileSync(path.join(dir, 'openapi.ts'), astToString(await openapiTS(structuredClone(doc))));
    fs.writeFileSync(path.join(dir, 'scenario.ts'), SCENARIO);
  });
  after(async () => {
    await svc?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the generated types name every operation and the webhook', () => {
    const types = fs.readFileSync(path.join(dir, 'openapi.ts'), 'utf8');
    for (const name of ['export interface paths', 'export interface webhooks', 'export interface operations', 'getJobTranscript:', 'publishProjectConfig:', 'submitPostCall:', 'JobBatch:']) {
      assert.ok(types.includes(name), `the generated types hold ${name}`);
    }
  });

  test('the client program type-checks against the generated types', () => {
    assert.deepEqual(typeCheck(dir), []);
  });

  test('a program typed wrongly does not (the check is real)', () => {
    const wrong = SCENARIO.replace("query: { format } }, parseAs: 'text'", "query: { format: 'docx' } }, parseAs: 'text'").replace(
      'publishedVersion: published.version,',
      'publishedVersion: published.sid,',
    );
    assert.notEqual(wrong, SCENARIO);
    fs.writeFileSync(path.join(dir, 'scenario.ts'), wrong);
    try {
      const errors = typeCheck(dir);
      assert.ok(errors.some((e) => e.includes('"docx"')), errors.join('\n'));
      assert.ok(errors.some((e) => /string.*number/.test(e)), errors.join('\n'));
    } finally {
      fs.writeFileSync(path.join(dir, 'scenario.ts'), SCENARIO);
    }
  });

  test('the client runs against the server: jobs in every transcript shape, a publish and a post-call', async () => {
    const recording = devAudio('audio/jfk.wav') ?? speak('and so my fellow americans ask not what your country can do for you', path.join(dir, 'speech.wav'));
    const record = fullEventRecord();
    // The program's own types were checked above; here its outcome is read as plain data.
    const { run } = (await import(path.join(dir, 'scenario.ts'))) as { run: (...args: unknown[]) => Promise<any> };
    const outcome = await run(base, { bytes: fs.readFileSync(recording), fileName: 'jfk.wav' }, record, PROJECT);

    for (const [job, shapes] of [
      [outcome.audioJob, outcome.audioShapes],
      [outcome.textJob, outcome.textShapes],
    ]) {
      assert.equal(job.status, 'completed', JSON.stringify(job).slice(0, 500));
      for (const format of ['vendorA', 'vendorB', 'transcript', 'utterances'] as const) {
        assert.match(String(shapes.json[format].contentType), /^application\/json/, format);
        assert.equal(typeof shapes.json[format].body, 'object', format);
      }
      assert.ok(Array.isArray(shapes.json.utterances.body) && shapes.json.utterances.body.length > 0, 'utterances');
      assert.deepEqual(shapes.defaultFormat, shapes.json.vendorA.body, 'format defaults to vendorA');
      assert.match(String(shapes.text.text.contentType), /^text\/plain/);
      assert.match(String(shapes.text.srt.contentType), /^application\/x-subrip/);
      assert.match(String(shapes.text.vtt.contentType), /^text\/vtt/);
      assert.match(shapes.text.srt.body, /^1\r?\n\d\d:\d\d:\d\d,\d{3} --> /);
      assert.match(shapes.text.vtt.body, /^WEBVTT/);
      assert.ok(shapes.text.text.body.trim().length > 0, 'text');
    }
    // The recording was recognized (the engine's words, in the text shape), the text job carried its words.
    assert.match(outcome.audioShapes.text.text.body.toLowerCase(), /country/);
    assert.match(outcome.textShapes.text.text.body.toLowerCase(), /order/);
    assert.ok(outcome.listedJobIds.includes(String(outcome.audioJob.jobId)) && outcome.listedJobIds.includes(String(outcome.textJob.jobId)));
    assert.equal(outcome.publishedVersion, 1);
    assert.equal(outcome.postCall.status, 201);
    assert.equal(outcome.postCall.readBack.eventId, record.eventId);
    assert.equal(outcome.notificationType, record.type);
  });
});
