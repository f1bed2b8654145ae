// `scrubline transcribe` with recordings of one name: each gets its own transcripts (it wrote both to one file
// and reported both done), and a set it cannot tell apart is refused before any work, naming both.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { outputNames } from '../../src/cli/outputNames.js';
import { ffmpeg, hasTool, speak, tempDir } from '../helpers/audio.js';
import { runCli } from '../helpers/cli.js';
import { required } from '../helpers/require.js';

const canRun = hasTool('ffmpeg') && hasTool('espeak-ng') && fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us');

describe('scrubline transcribe: recordings of one name', { skip: required(!canRun && 'needs ffmpeg, espeak-ng and PocketSphinx') }, () => {
  let dir: string;
  before(() => {
    dir = tempDir();
    for (const day of ['monday', 'tuesday']) fs.mkdirSync(path.join(dir, 'calls', day), { recursive: true });
    speak('hello and welcome to the support line', path.join(dir, 'calls', 'monday', 'call.wav'));
    speak('please hold while i look that up', path.join(dir, 'calls', 'tuesday', 'call.wav'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const text = (file: string) => fs.readFileSync(file, 'utf8').toLowerCase();

  test('two folders with a call.wav each: a transcript per folder, each its own recording', () => {
    const out = path.join(dir, 'out');
    const result = runCli(['transcribe', path.join(dir, 'calls'), '--out', out, '--format', 'text'], {});
    assert.equal(result.status, 0, result.stderr + result.stdout);
    assert.match(result.stdout, /2 of 2 recordings transcribed/);
    assert.deepEqual(fs.readdirSync(out).sort(), ['monday', 'tuesday']);
    const monday = text(path.join(out, 'monday', 'call.txt'));
    assert.notEqual(monday, text(path.join(out, 'tuesday', 'call.txt')), 'two recordings, two transcripts');
    // Each is its own recording's: the same as transcribing it alone.
    const alone = path.join(dir, 'out-alone');
    assert.equal(runCli(['transcribe', path.join(dir, 'calls', 'monday', 'call.wav'), '--out', alone, '--format', 'text'], {}).status, 0);
    assert.equal(monday, text(path.join(alone, 'call.txt')));
  });

  test('call.wav and call.mp3 in one folder keep their extensions', () => {
    const folder = path.join(dir, 'mixed');
    fs.mkdirSync(folder);
    fs.copyFileSync(path.join(dir, 'calls', 'monday', 'call.wav'), path.join(folder, 'call.wav'));
    ffmpeg(['-i', path.join(dir, 'calls', 'tuesday', 'call.wav'), path.join(folder, 'Call.mp3')]);
    const out = path.join(dir, 'out-mixed');
    const result = runCli(['transcribe', folder, '--out', out, '--format', 'text'], {});
    assert.equal(result.status, 0, result.stderr + result.stdout);
    assert.deepEqual(fs.readdirSync(out).sort(), ['Call.mp3.txt', 'call.wav.txt']);
    assert.notEqual(text(path.join(out, 'call.wav.txt')), text(path.join(out, 'Call.mp3.txt')));
  });

  test('the same recording named twice is transcribed once', () => {
    const file = path.join(dir, 'calls', 'monday', 'call.wav');
    const out = path.join(dir, 'out-twice');
    const result = runCli(['transcribe', file, path.join(dir, 'calls', 'monday'), '--out', out, '--format', 'text'], {});
    assert.equal(result.status, 0, result.stderr + result.stdout);
    assert.match(result.stdout, /1 of 1 recordings transcribed/);
    assert.deepEqual(fs.readdirSync(out), ['call.txt']);
  });

  test('names it cannot tell apart are refused before any work, naming both', () => {
    const folder = path.join(dir, 'clash');
    fs.mkdirSync(folder);
    for (const name of ['x.wav', 'x.mp3', 'x.wav.mp3']) fs.copyFileSync(path.join(dir, 'calls', 'monday', 'call.wav'), path.join(folder, name));
    const out = path.join(dir, 'out-clash');
    const result = runCli(['transcribe', folder, '--out', out, '--format', 'text'], {});
    assert.notEqual(result.status, 0);
    assert.match(result.stderr + result.stdout, /x\.wav(\.mp3)? and .*x\.wav(\.mp3)? would both be written as x\.wav/);
    assert.equal(fs.existsSync(out), false, 'nothing written');
  });
});

describe('outputNames', () => {
  test('unique names stay as they are; shared ones keep the folders that differ', () => {
    const names = outputNames(['a/one.wav', 'calls/x/two.wav', 'calls/y/z/two.flac']);
    assert.deepEqual([...names.values()], ['one', path.join('x', 'two'), path.join('y', 'z', 'two')]);
  });
  test('letter case does not tell names apart', () => {
    const names = outputNames(['a/Call.wav', 'b/call.wav']);
    assert.deepEqual([...names.values()], [path.join('a', 'Call'), path.join('b', 'call')]);
  });
});
