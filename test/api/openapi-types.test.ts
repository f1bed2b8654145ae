// What generated clients get from /openapi.json for jobs: the job's state fields as unions of the values the
// service gives (status, redactionStatus, priority), the multipart recording as binary (a generator maps it to a
// file: openapi-typescript's documented transform turns format: binary into Blob), Location on the job answers
// and Retry-After on every 429 and 503. Checked on the served document, with real answers against the declared
// values, and by type-checking a small program against the generated types (wrong values must not compile).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { json, startTestService, type TestService } from '../helpers/harness.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** A program using the generated types as an integrator would; each @ts-expect-error must be an error. */
const PROGRAM = `
import type { components, paths } from './openapi.js';
type Job = components['schemas']['Job'];
type Upload = NonNullable<paths['/asr/transcribe']['post']['requestBody']>['content']['multipart/form-data'];

export const queued: Job['status'] = 'queued';
export const cancelled: Job['status'] = 'cancelled';
// @ts-expect-error not a status a job has
export const done: Job['status'] = 'done';
export const redacted: Job['redactionStatus'] = 'not_requested';
// @ts-expect-error not a redaction state
export const partly: Job['redactionStatus'] = 'partial';
export const high: Job['priority'] = 'high';
export const numbered: Job['priority'] = '-5';
export const recording: NonNullable<Upload['audio']>[number] = new Blob([new Uint8Array(4)], { type: 'audio/wav' });
// @ts-expect-error a number is not a file
export const notARecording: NonNullable<Upload['audio']>[number] = 5;
`;

function typeCheck(dir: string): string[] {
  const program = ts.createProgram({
    rootNames: [path.join(dir, 'program.ts')],
    options: { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'], types: [], skipLibCheck: true },
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('OpenAPI types of jobs', () => {
  let svc: TestService;
  let doc: any;
  let dir: string;
  before(async () => {
    svc = await startTestService('sqlite', { workers: false });
    doc = json(await svc.request({ method: 'GET', url: '/openapi.json' }));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-openapi-types-'));
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    // openapi-typescript's documented transform for file uploads: format binary is a Blob.
    const ast = await openapiTS(structuredClone(doc), {
      transform: (schema) => ('format' in schema && schema.format === 'binary' ? ts.factory.createTypeReferenceNode('Blob') : undefined),
    });
    fs.writeFileSync(path.join(dir, 'openapi.ts'), astToString(ast));
    fs.writeFileSync(path.join(dir, 'program.ts'), PROGRAM);
  });
  after(async () => {
    await svc?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('job status, redactionStatus and priority are declared by their values', () => {
    const job = doc.components.schemas.Job.properties;
    assert.deepEqual(job.status.enum, ['queued', 'processing', 'completed', 'failed', 'cancelled']);
    assert.deepEqual(job.redactionStatus.enum, ['not_requested', 'pending', 'completed', 'failed']);
    assert.deepEqual(job.priority.anyOf[0].enum, ['high', 'normal', 'low']);
    // Every jobs route answers the Job component; records posted by other systems keep their open processJob.
    for (const [route, method, status] of [['/asr/jobs/{jobId}', 'get', '200'], ['/asr/jobs/{jobId}/cancel', 'post', '200'], ['/asr/transcribe', 'post', '200']]) {
      assert.equal(doc.paths[route][method].responses[status].content['application/json'].schema.$ref, '#/components/schemas/Job', route);
    }
    assert.equal(doc.components.schemas.ProcessJob.properties.status.enum, undefined);
  });

  test("a real job's answer holds values the document declares, and its Location header", async () => {
    const submitted = await svc.request({ method: 'POST', url: '/asr/transcribe?priority=-5', payload: { text: 'Agent: hello\nCaller: hi there' } });
    assert.equal(submitted.statusCode, 202);
    assert.equal(submitted.headers.location, `/asr/jobs/${json(submitted).jobId}`);
    const job = doc.components.schemas.Job.properties;
    const answer = json(submitted);
    assert.ok(job.status.enum.includes(answer.status), answer.status);
    assert.ok(job.redactionStatus.enum.includes(answer.redactionStatus), answer.redactionStatus);
    assert.equal(answer.priority, '-5');
    assert.match(answer.priority, new RegExp(job.priority.anyOf[1].pattern));
    assert.equal(doc.paths['/asr/transcribe'].post.responses['202'].headers.Location.schema.type, 'string');
  });

  test('every 429 and 503 declares Retry-After', () => {
    let seen = 0;
    for (const [route, item] of Object.entries<any>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        for (const status of ['429', '503']) {
          const response = operation.responses?.[status];
          if (!response) continue;
          seen++;
          assert.equal(response.headers?.['Retry-After']?.schema?.type, 'integer', `${method.toUpperCase()} ${route} ${status}`);
        }
      }
    }
    assert.ok(seen > 40, `${seen} responses checked`);
  });

  test('the multipart recording is binary', () => {
    const audio = doc.paths['/asr/transcribe'].post.requestBody.content['multipart/form-data'].schema.properties.audio;
    assert.equal(audio.items.format, 'binary');
    assert.equal(doc.paths['/asr/transcribe'].post.requestBody.content['audio/*'].schema.format, 'binary');
  });

  test('generated types: a Blob is a recording, and wrong state values do not compile', () => {
    assert.deepEqual(typeCheck(dir), []);
    fs.writeFileSync(path.join(dir, 'program.ts'), PROGRAM.replaceAll('// @ts-expect-error', '//'));
    try {
      const errors = typeCheck(dir);
      assert.equal(errors.length, 3, errors.join('\n'));
      assert.ok(errors.some((e) => e.includes('"done"')));
      assert.ok(errors.some((e) => e.includes('"partial"')));
    } finally {
      fs.writeFileSync(path.join(dir, 'program.ts'), PROGRAM);
    }
  });
});
