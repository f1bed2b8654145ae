// The alignment path (models without token times, such as Whisper): words timed by the bundled acoustic model
// with a grammar of exactly those words. Agreement with the bundled engine's own times on the dev files is
// guarded (measured by eval/align.ts: word-weighted median 0.003 s, p90 0.029 s when the same words are
// aligned; p90 0.114 s for the reference text); words the dictionary lacks (digits) get the time between
// their neighbours, wide rather than missing.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { evaluateAlignment, shareWithin } from '../../eval/align.js';
import { decodeChannels } from '../../src/audio/decode.js';
import { listModels, WIDEBAND_MODEL } from '../../src/engine/models.js';
import { alignWords } from '../../src/engine/pocketsphinx/align.js';
import { cardinalWords, spokenForms } from '../../src/engine/pocketsphinx/spokenNumbers.js';
import { hasFestivalVoice, speakFestival, tempDir } from '../helpers/audio.js';
import { devDataSkip, loadReferences } from '../helpers/devData.js';
import { required } from '../helpers/require.js';

const wideband = listModels().find((m) => m.name === WIDEBAND_MODEL);
const model = wideband?.installed && wideband.files ? { ...wideband.files, sampleRate: wideband.sampleRate } : undefined;

describe('alignment of words without times', { skip: required(!model && `${WIDEBAND_MODEL} is not installed`) }, () => {
  let dir: string;
  before(() => (dir = tempDir('scrubline-align-')));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('on the dev files, aligned times agree with the bundled engine’s own', { skip: devDataSkip() }, async () => {
    const rows = await evaluateAlignment(loadReferences()!);
    const own = shareWithin(rows, 'own');
    assert.ok(own.compared >= 100, `${own.compared} words compared`);
    assert.ok(own.p90 <= 0.06, `own words: p90 error ${own.p90} s (measured 0.029 s)`);
    for (const r of rows.filter((x) => x.mode === 'own')) {
      assert.equal(r.spread, false, `${r.audio}: the grammar found a path`);
      assert.ok(r.maxError <= 0.15, `${r.audio} ch${r.channel}: max error ${r.maxError} s`);
    }
    const ref = shareWithin(rows, 'ref');
    assert.ok(ref.median <= 0.03 && ref.p90 <= 0.25, `reference text: median ${ref.median} s, p90 ${ref.p90} s (measured 0.003 / 0.114)`);
  });

  test('a number written as digits (not in the dictionary) is timed over the spoken digits', { skip: required(!hasFestivalVoice() && 'festival voice not installed') }, async () => {
    const wav = speakFestival('please note my pin is four four seven one thank you very much', path.join(dir, 'pin.wav'));
    const pcm = (await decodeChannels(wav, { sampleRate: model!.sampleRate })).channels[0];
    // Where the digits are: the same audio aligned with the words as spoken (all in the dictionary).
    const spoken = alignWords(model!, pcm, 'please note my pin is four four seven one thank you very much'.split(' '));
    assert.equal(spoken.spread, false);
    const digits = spoken.words.slice(5, 9);
    // What a model that writes digits would give: "4471".
    const aligned = alignWords(model!, pcm, ['please', 'note', 'my', 'pin', 'is', '4471', 'thank', 'you', 'very', 'much']);
    assert.equal(aligned.spread, false);
    assert.equal(aligned.aligned, 10, 'every word in the grammar, the number as the ways it may be said');
    const pin = aligned.words[5];
    assert.equal(pin.word, '4471');
    assert.ok(Math.abs(pin.start - digits[0].start) <= 0.05 && Math.abs(pin.end - digits[3].end) <= 0.05, `4471 at ${pin.start}-${pin.end}, digits spoken ${digits[0].start}-${digits[3].end}`);
    for (let i = 1; i < aligned.words.length; i++) assert.ok(aligned.words[i].start >= aligned.words[i - 1].start, 'in order');
  });

  test('a word the dictionary lacks takes the time between its neighbours', { skip: required(!hasFestivalVoice() && 'festival voice not installed') }, async () => {
    const wav = speakFestival('my name is zorblatt and i need help', path.join(dir, 'name.wav'));
    const pcm = (await decodeChannels(wav, { sampleRate: model!.sampleRate })).channels[0];
    const aligned = alignWords(model!, pcm, ['my', 'name', 'is', 'zorblatt', 'and', 'i', 'need', 'help']);
    assert.equal(aligned.aligned, 7);
    const [is, name, and] = [aligned.words[2], aligned.words[3], aligned.words[4]];
    // The aligner gives the name's audio to its neighbours ("is" and "and" stretch over it); the name's span
    // then covers them rather than a zero-length gap: wide, never missing.
    const where = `zorblatt at ${name.start}-${name.end}; "is" ${is.start}-${is.end}, "and" ${and.start}-${and.end}`;
    assert.ok(name.start <= is.end && name.end >= and.start && name.end - name.start >= 0.5, where);
    assert.ok(name.start >= is.start - 0.6 && name.end <= and.end + 0.001, where);
  });

  test('numbers may be said digit by digit, as cardinals or as years', () => {
    assert.deepEqual(spokenForms('4471'), [['four', 'four', 'seven', 'one'], ['four', 'thousand', 'four', 'hundred', 'seventy', 'one'], ['forty', 'four', 'seventy', 'one']]);
    assert.deepEqual(spokenForms('123-45-6789')?.[0], ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine']);
    assert.deepEqual(spokenForms('2005'), [['two', 'oh', 'oh', 'five'], ['two', 'zero', 'zero', 'five'], ['two', 'thousand', 'five'], ['twenty', 'oh', 'five']]);
    assert.deepEqual(spokenForms('0'), [['zero']]);
    assert.equal(spokenForms('hello'), undefined);
    assert.deepEqual(cardinalWords(100000), ['one', 'hundred', 'thousand']);
  });

  test('text the grammar cannot match is spread over the stretch, and says so', () => {
    const silence = new Int16Array(model!.sampleRate * 2);
    const result = alignWords(model!, silence, ['zyxxq', 'qqzv']);
    assert.equal(result.spread, true);
    assert.equal(result.words.length, 2);
    assert.equal(result.words[0].start, 0);
    assert.equal(result.words[1].end, 2);
  });
});
