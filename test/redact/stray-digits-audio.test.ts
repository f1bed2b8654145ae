// Stray digit words on real recognition (issue 17): two dev calls of eval/spokenNumberCalls.ts whose card numbers
// the bundled engine garbles so far that no window formed (call 11 at 10 dB; call 16, a festival voice, at 20 dB)
// are synthesized, recognized by the service's recognizer, and their windows found: the text the job would leave
// shows no digit word inside the spoken card, CVV, SSN or account spans, and each stray-digit window is one word long.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, describe, test } from 'node:test';
import { recognizeFile } from '../../src/engine/recognize.js';
import { closeSharedPool } from '../../src/engine/pool.js';
import { policyRules } from '../../src/redact/policy.js';
import { DEFAULT_KINDS } from '../../src/redact/entityKinds.js';
import { findSensitiveWindows } from '../../src/redact/windows/sensitiveWindows.js';
import { applyWindows } from '../../src/redact/windows/apply.js';
import { CALL_SETS } from '../../eval/spokenNumberCalls.js';
import { hasFestivalVoice, hasTool, tempDir } from '../helpers/audio.js';
import { buildCall, DIGIT_LIKE } from '../helpers/calls.js';
import { required } from '../helpers/require.js';

const canRun = hasTool('ffmpeg') && hasTool('espeak-ng') && hasFestivalVoice() && fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us');

describe('stray digit words on recognized calls', { skip: required(!canRun && 'needs ffmpeg, espeak-ng, festival with the US HTS voice, and PocketSphinx') }, () => {
  const dir = tempDir();
  after(async () => {
    await closeSharedPool();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('no digit word of a garbled number is left in the text; each stray window is one word', async () => {
    const kinds = [...DEFAULT_KINDS];
    const rules = policyRules({ kinds, text: true, audio: true });
    const specs = CALL_SETS.dev.filter((c) => c.seed === 11 || c.seed === 16);
    const calls = specs.map((spec) => buildCall(dir, spec));
    const transcripts = await Promise.all(calls.map((call) => recognizeFile(call.wav, {})));
    let stray = 0;
    calls.forEach((call, n) => {
      const windows = findSensitiveWindows(transcripts[n], { kinds, project: { enabled: true } });
      const text = applyWindows(transcripts[n], windows, rules).transcript;
      for (const g of call.gold.filter((x) => x.kind !== 'DateOfBirth')) {
        const left = text.channels.find((c) => c.channel === g.channel)!.words.filter((w) => w.start < g.end && w.end > g.start && DIGIT_LIKE.has(w.word));
        assert.deepEqual(left.map((w) => w.word), [], `call ${specs[n].seed}, ${g.kind}: digit words left in the text`);
      }
      for (const w of windows.filter((x) => /digit word/.test(x.reason ?? ''))) {
        stray++;
        assert.ok(w.end - w.start <= 1.5, `a stray-digit window is one word's time: ${JSON.stringify(w)}`);
      }
    });
    // The digits were found by this rule, not by some wider window (the two calls have 8 such words).
    assert.ok(stray > 0, 'stray-digit windows found');
  });
});
