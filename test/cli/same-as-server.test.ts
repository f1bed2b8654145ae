// `scrubline transcribe` gives the server's transcript: the same words, punctuation and numbers in text and
// json-v2 for the same recording, with and without redaction (--scrubtext as scrubtext=true); --scrubaudio,
// which only the server can do, is refused before any work.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { devAudio, hasTool, tempDir } from '../helpers/audio.js';
import { runCliAsync } from '../helpers/cli.js';
import { json, startTestService, type TestService } from '../helpers/harness.js';
import { multipart } from '../helpers/multipart.js';
import { required } from '../helpers/require.js';

const JFK = devAudio('audio/jfk.wav');
const canRun = hasTool('ffmpeg') && fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us');

describe('CLI output equals the server', { skip: required(!canRun && 'needs ffmpeg and PocketSphinx') || required(!JFK && 'dev data not at hand', 'SCRUBLINE_REQUIRE_DEV_DATA') }, () => {
  let svc: TestService;
  let dir: string;
  before(async () => {
    dir = tempDir();
    svc = await startTestService('sqlite');
  });
  after(async () => {
    await svc.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function server(fields: Record<string, string>) {
    const upload = multipart(fields, [{ name: 'audio', filename: 'jfk.wav', content: fs.readFileSync(JFK!) }]);
    const res = await svc.request({ method: 'POST', url: '/asr/transcribe?wait=600', ...upload });
    assert.equal(res.statusCode, 200, res.body);
    const jobId = json(res).jobId;
    const text = (await svc.request({ method: 'GET', url: `/asr/jobs/${jobId}/transcript?format=text` })).body;
    const shape = json(await svc.request({ method: 'GET', url: `/asr/jobs/${jobId}/transcript?format=transcript` }));
    return { text, shape };
  }

  async function cli(args: string[], out: string) {
    const result = await runCliAsync(['transcribe', JFK!, '--out', out, '--format', 'text,transcript', ...args], {});
    assert.equal(result.status, 0, result.stderr + result.stdout);
    return { text: fs.readFileSync(path.join(out, 'jfk.txt'), 'utf8'), shape: JSON.parse(fs.readFileSync(path.join(out, 'jfk.transcript.json'), 'utf8')) };
  }

  for (const [name, fields, args] of [
    ['plain', {}, []],
    ['redacted', { scrubtext: 'true' }, ['--scrubtext']],
  ] as const) {
    test(`${name}: the same text (punctuation included) and json-v2 results`, async () => {
      const [fromServer, fromCli] = await Promise.all([server(fields), cli([...args], path.join(dir, name))]);
      assert.equal(fromCli.text, fromServer.text);
      assert.match(fromServer.text, /[.?!]/, 'punctuated');
      assert.deepEqual(fromCli.shape.results, fromServer.shape.results);
      assert.deepEqual(fromCli.shape.metadata.transcription_config, fromServer.shape.metadata.transcription_config);
      assert.equal(fromCli.shape.job.duration, fromServer.shape.job.duration);
      assert.equal(fromCli.shape.job.data_name, fromServer.shape.job.data_name);
    });
  }

  test('--scrubaudio is refused before any work; a bad kind too', async () => {
    let result = await runCliAsync(['transcribe', JFK!, '--out', path.join(dir, 'no'), '--scrubaudio'], {});
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /--scrubaudio is not available/);
    result = await runCliAsync(['transcribe', JFK!, '--out', path.join(dir, 'no'), '--types', 'NotAKind'], {});
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /--types/);
    assert.ok(!fs.existsSync(path.join(dir, 'no', 'jfk.txt')));
  });
});
