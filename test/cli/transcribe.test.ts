// `scrubline transcribe`: recordings and folders in, transcripts out, with progress lines and a summary.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ffmpeg, hasTool, speak, tempDir } from '../helpers/audio.js';
import { runCli } from '../helpers/cli.js';
import { required } from '../helpers/require.js';

const canRun = hasTool('ffmpeg') && hasTool('espeak-ng') && fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us');

describe('scrubline transcribe', { skip: required(!canRun && 'needs ffmpeg, espeak-ng and PocketSphinx') }, () => {
  let dir: string;
  before(() => {
    dir = tempDir();
    fs.mkdirSync(path.join(dir, 'calls', 'monday'), { recursive: true });
    speak('hello and welcome to the support line', path.join(dir, 'calls', 'greeting.wav'));
    ffmpeg(['-i', speak('please hold while i look that up', path.join(dir, 'hold.wav')), path.join(dir, 'calls', 'monday', 'hold.mp3')]);
    fs.writeFileSync(path.join(dir, 'calls', 'notes.txt'), 'not a recording');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('a folder of recordings gives every format asked for, with a line per recording', () => {
    const out = path.join(dir, 'out');
    const result = runCli(['transcribe', path.join(dir, 'calls'), '--out', out, '--format', 'vendorA,transcript,srt,text'], {});
    assert.equal(result.status, 0, result.stderr + result.stdout);
    assert.match(result.stdout, /\[1\/2\] .*greeting\.wav: \d+ words/);
    assert.match(result.stdout, /\[2\/2\] .*hold\.mp3: \d+ words/);
    assert.match(result.stdout, /2 of 2 recordings transcribed/);
    assert.deepEqual(fs.readdirSync(out).sort(), [
      'greeting.srt', 'greeting.transcript.json', 'greeting.txt', 'greeting.vendorA.json',
      'hold.srt', 'hold.transcript.json', 'hold.txt', 'hold.vendorA.json',
    ]);
    const vendorA = JSON.parse(fs.readFileSync(path.join(out, 'greeting.vendorA.json'), 'utf8'));
    assert.ok(vendorA.utterances.length > 0 && vendorA.utterances[0].events.length > 0);
    assert.match(fs.readFileSync(path.join(out, 'hold.srt'), 'utf8'), /^1\r?\n\d\d:\d\d:\d\d,\d\d\d --> /);
  });

  test('a file that is not audio fails alone, and the exit code says so', () => {
    const out = path.join(dir, 'out2');
    const result = runCli(['transcribe', path.join(dir, 'calls', 'notes.txt'), path.join(dir, 'calls', 'greeting.wav'), '--out', out], {});
    assert.equal(result.status, 1);
    assert.match(result.stdout, /notes\.txt: failed: .*not audio/i);
    assert.match(result.stdout, /1 of 2 recordings transcribed/);
  });

  test('an unknown format is refused before any work', () => {
    const result = runCli(['transcribe', path.join(dir, 'calls'), '--format', 'pdf'], {});
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /Unknown format pdf/);
  });
});
