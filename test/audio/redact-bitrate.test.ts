// The redacted copy of a lossy recording keeps the source's bit rate (issue 17: a 16 kb/s Opus call came back at
// ~4.3x with the encoder's default). Real speech (dev data, else espeak-ng), real ffmpeg encoders.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { probeAudio } from '../../src/audio/probe.js';
import { redactAudio } from '../../src/audio/redactAudio.js';
import { devAudio, ffmpeg, hasTool, speak, tempDir } from '../helpers/audio.js';
import { required } from '../helpers/require.js';

/** Mean bit rate of a file: size over duration. */
async function bitRate(file: string): Promise<number> {
  const p = await probeAudio(file);
  return (p.sizeBytes * 8) / p.durationSeconds;
}

describe('redacted copy bit rate', { skip: required(!hasTool('ffmpeg') && 'no ffmpeg') }, () => {
  let dir: string;
  let speech: string;
  before(() => {
    dir = tempDir();
    speech = devAudio('audio/jfk.wav') ?? speak('my card number is four one one one two two two two three three three three four four four four', path.join(dir, 'speech.wav'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const cases = [
    { name: '48 kHz Opus at 16 kb/s (a telephone call)', ext: 'opus', args: ['-ar', '48000', '-c:a', 'libopus', '-b:a', '16k'] },
    { name: 'stereo Opus at 24 kb/s', ext: 'ogg', args: ['-ac', '2', '-ar', '48000', '-c:a', 'libopus', '-b:a', '24k'] },
    { name: 'MP3 at 32 kb/s', ext: 'mp3', args: ['-ar', '16000', '-c:a', 'libmp3lame', '-b:a', '32k'] },
    { name: 'AAC (m4a) at 32 kb/s', ext: 'm4a', args: ['-ar', '16000', '-c:a', 'aac', '-b:a', '32k'] },
  ];
  for (const c of cases) {
    test(`${c.name}: the redacted copy is within x1.5 of the source's bit rate`, async () => {
      const source = path.join(dir, `source-${c.ext}.${c.ext}`);
      const output = path.join(dir, `redacted-${c.ext}.${c.ext}`);
      ffmpeg(['-i', speech, ...c.args, source]);
      const probe = await probeAudio(source);
      await redactAudio(source, output, [{ channel: 0, start: 1, end: 2 }]);
      const [before, after] = [await bitRate(source), await bitRate(output)];
      const out = await probeAudio(output);
      assert.equal(out.codec, probe.codec, 'same codec');
      assert.equal(out.channels, probe.channels, 'same channels');
      assert.ok(after <= before * 1.5 && after >= before / 1.5, `source ${(before / 1000).toFixed(1)} kb/s, redacted ${(after / 1000).toFixed(1)} kb/s`);
      console.log(`${c.name}: source ${(before / 1000).toFixed(1)} kb/s, redacted ${(after / 1000).toFixed(1)} kb/s`);
    });
  }
});
