// The CLI's progress display: a failed recording is shown as a failure (its bar not filled) with its whole
// reason printed after the bars, however long; recognition reports progress as it goes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import { lineReporter, terminalReporter } from '../../src/cli/progress.js';
import { recognizeFile } from '../../src/engine/recognize.js';
import { devAudio, hasTool } from '../helpers/audio.js';
import { required } from '../helpers/require.js';

const LONG_REASON = `The upload is not usable audio (invalid_data): ${'ffmpeg could not find a stream in the file; '.repeat(8)}end of reason`;

describe('CLI progress display', () => {
  test('a failure keeps its bar short of 100% and its full reason is printed after the bars', async () => {
    const drawn = new PassThrough();
    let screen = '';
    drawn.on('data', (d: Buffer) => (screen += d.toString()));
    const lines: string[] = [];
    const reporter = terminalReporter(['good.wav', 'bad.wav'], (line) => lines.push(line), drawn, false);
    reporter.start('good.wav');
    reporter.start('bad.wav');
    reporter.progress('good.wav', 0.5, 'recognizing');
    reporter.progress('bad.wav', 0, 'reading the audio');
    reporter.failed('bad.wav', LONG_REASON);
    reporter.done('good.wav', '12 words');
    reporter.stop();
    assert.deepEqual(lines, [`FAILED bad.wav: ${LONG_REASON}`], 'the whole reason, on its own line');
    assert.match(screen, /100% \| good\.wav/);
    assert.doesNotMatch(screen, /100% \| bad\.wav/, 'a failed recording is never drawn as a full bar');
    assert.match(screen, /bad\.wav \| FAILED/);
  });

  test('without a terminal, a failure is a line with its whole reason', () => {
    const lines: string[] = [];
    const reporter = lineReporter(['bad.wav'], (line) => lines.push(line));
    reporter.failed('bad.wav', LONG_REASON);
    assert.deepEqual(lines, [`[1/1] bad.wav: failed: ${LONG_REASON}`]);
  });
});

const STEREO = devAudio('audio/stereo/stereo_diarization.wav');
const canRun = hasTool('ffmpeg') && fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us');

describe('recognition progress', { skip: required(!canRun && 'needs ffmpeg and PocketSphinx') || required(!STEREO && 'dev data not at hand', 'SCRUBLINE_REQUIRE_DEV_DATA') }, () => {
  test('recognizeFile reports progress while it recognizes, ending at 1', async () => {
    const file = STEREO!;
    const seen: number[] = [];
    const transcript = await recognizeFile(file, { onProgress: (f) => seen.push(f) });
    assert.ok(transcript.channels.every((c) => c.words.length > 0));
    assert.equal(seen.at(-1), 1);
    assert.ok(seen.some((f) => f > 0 && f < 1), `a value between 0 and 1 while recognizing: ${seen.join(', ')}`);
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i] >= seen[i - 1], 'never goes back');
  });
});
