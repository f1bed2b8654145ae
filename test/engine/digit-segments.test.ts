// Spoken digit strings are not cut at segment boundaries (issue 17: a clean 15-digit read, 0 errors by the engine
// alone, 4 through the service). A 16-digit card number read in groups of four with a pause of more than a second
// after each group (so voice activity finds four segments) is recognized by the engine alone (one decode of the
// whole read) and through a real service; the service must not lose digits the engine alone gets.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { decodeChannels } from '../../src/audio/decode.js';
import { detectSpeech } from '../../src/audio/vad.js';
import { decodePcm } from '../../src/engine/pocketsphinx/decoder.js';
import { PocketSphinxEngine } from '../../src/engine/pocketsphinx/engine.js';
import { closeSharedPool } from '../../src/engine/pool.js';
import { speechBatches } from '../../src/engine/speechBatches.js';
import { ffmpeg, hasFestivalVoice, hasTool, speakFestival, tempDir } from '../helpers/audio.js';
import { json, startTestService, type TestService } from '../helpers/harness.js';
import { transcribeAndWait } from '../helpers/jobs.js';
import { required } from '../helpers/require.js';
import { editDistance } from '../helpers/wer.js';

const canRun = hasTool('ffmpeg') && hasFestivalVoice() && fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us');
const DIGITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
/** Homophones the recognizer writes for digits: counted as the digit. */
const AS_DIGIT: Record<string, string> = { oh: 'zero', for: 'four', to: 'two', too: 'two', won: 'one', ate: 'eight' };
const GROUPS = ['four four one four', 'two one four zero', 'three seven two one', 'zero four five six'];

/** Digit-word errors of `words` against the digits read (edit distance over the digit words heard). */
function digitErrors(words: string[]): number {
  const heard = words.map((w) => AS_DIGIT[w] ?? w).filter((w) => DIGITS.includes(w));
  return editDistance(GROUPS.join(' ').split(' '), heard);
}

describe('digit strings across voice-activity segments', { skip: required(!canRun && 'needs ffmpeg, festival with the US HTS voice, and PocketSphinx') }, () => {
  let dir: string;
  let read: string;
  let svc: TestService;
  before(async () => {
    dir = tempDir();
    const parts = GROUPS.map((g, i) => speakFestival(g, path.join(dir, `group-${i}.wav`)));
    read = path.join(dir, 'card-read.wav');
    const filter = `${parts.map((_, i) => `[${i}:a]apad=pad_dur=1.4[p${i}]`).join(';')};${parts.map((_, i) => `[p${i}]`).join('')}concat=n=${parts.length}:v=0:a=1[a]`;
    ffmpeg([...parts.flatMap((p) => ['-i', p]), '-filter_complex', filter, '-map', '[a]', '-ar', '16000', '-c:a', 'pcm_s16le', read]);
    svc = await startTestService('sqlite');
  });
  after(async () => {
    await svc?.close();
    await closeSharedPool();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the pauses between groups make several voice segments, decoded as one unit', async () => {
    const audio = await decodeChannels(read, { sampleRate: 16000 });
    assert.ok(detectSpeech(audio.channels[0], 16000).length >= 3, 'the read has pauses the voice-activity step sees');
    const { batches } = speechBatches(audio.channels[0], 16000, {}, { maxUnitSeconds: 15, batchSeconds: 60 });
    assert.equal(batches.flatMap((b) => b.units).length, 1, 'one decode unit: no cut inside the number');
  });

  test('through the service: no more digit errors than the engine alone on the same audio', async () => {
    const job = await transcribeAndWait(svc, read, { waitSeconds: 300 });
    const audio = await decodeChannels(read, { sampleRate: 16000 });
    const alone = decodePcm(new PocketSphinxEngine().resolve(job.model), audio.channels[0]).words.map((w) => w.word);
    // The utterance records' `text` is the recognized words (formattedText would write the digits as numerals).
    const res = await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/transcript?format=utterances` });
    assert.equal(res.statusCode, 200, res.body);
    const body = json(res);
    const service = (Array.isArray(body) ? body : body.utterances).flatMap((u: { text: string }) => u.text.split(/\s+/)).filter(Boolean);
    const [a, s] = [digitErrors(alone), digitErrors(service)];
    console.log(`digit errors on a 16-digit read (${job.model}): engine alone ${a}, service ${s}`);
    assert.ok(s <= a, `the service lost digits the engine alone got: alone "${alone.join(' ')}", service "${service.join(' ')}"`);
  });
});
