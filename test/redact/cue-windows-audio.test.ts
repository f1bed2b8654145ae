// Cue windows on real recognition: a synthesized two-party call (espeak-ng) where the agent asks for the card
// number on the left channel and the caller reads digits on the right goes through the service's recognizer;
// the window finder, run on the recognized words, opens a card window over the caller's digits, whatever the
// recognizer made of the cue and of the digits.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { durationOf, ffmpeg, hasFestivalVoice, hasTool, speak, speakFestival, stereo, tempDir } from '../helpers/audio.js';
import { json, startTestService, type TestService } from '../helpers/harness.js';
import { transcribeAndWait, transcriptShape } from '../helpers/jobs.js';
import { required } from '../helpers/require.js';
import { findSensitiveWindows } from '../../src/redact/windows/sensitiveWindows.js';

const canRun = hasTool('ffmpeg') && hasTool('espeak-ng') && hasFestivalVoice() && fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us');

describe('cue windows on recognized speech', { skip: required(!canRun && 'ffmpeg, espeak-ng, festival\'s voice or the PocketSphinx model is not installed') }, () => {
  let svc: TestService;
  let dir: string;
  before(async () => {
    svc = await startTestService('sqlite');
    await svc.services.worker.start();
    dir = tempDir();
  });
  after(async () => {
    await svc.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  // Two voices, as on a call: festival's for the agent, espeak-ng's for the caller.
  test('the agent asks for the card number; the window covers the caller reading it, at 8 kHz', async () => {
    const agent = speakFestival('okay, can I have the card number please', path.join(dir, 'agent.wav'));
    const agentSeconds = durationOf(agent);
    const digitsRaw = speak('four one one one, two two two two, three three three three, four four four four', path.join(dir, 'digits.wav'), { speed: 130 });
    const digitsStart = agentSeconds + 0.8;
    const digitsEnd = digitsStart + durationOf(digitsRaw);
    const caller = path.join(dir, 'caller.wav');
    ffmpeg(['-i', digitsRaw, '-af', `adelay=${Math.round(digitsStart * 1000)}`, caller]);
    const call = stereo(agent, caller, path.join(dir, 'call.wav'));
    const telephone = path.join(dir, 'call-8k.wav');
    ffmpeg(['-i', call, '-ar', '8000', '-ac', '2', '-c:a', 'pcm_mulaw', telephone]);

    const job = await transcribeAndWait(svc, telephone, { fields: { numtrans: 'false' } });
    const vendorA = json(await transcriptShape(svc, job.jobId, 'vendorA'));
    const channels = [0, 1].map((channel) => ({
      channel,
      words: vendorA.utterances
        .filter((u: { metadata: { channel: number } }) => u.metadata.channel === channel)
        .flatMap((u: { events: { word: string; start: number; end: number; confidence: number }[] }) => u.events),
    }));
    const heard = channels.map((c) => c.words.map((w: { word: string }) => w.word).join(' '));
    const windows = findSensitiveWindows({ channels, audioSeconds: durationOf(telephone) }, { kinds: ['CreditCardNumber'] });
    const onCaller = windows.filter((w) => w.channel === 1 && w.kind === 'CreditCardNumber');
    const what = `heard ${JSON.stringify(heard)}; windows ${JSON.stringify(windows)}`;
    assert.ok(onCaller.some((w) => w.source === 'cue'), `a cue window on the caller's channel: ${what}`);
    // The union of the caller's windows covers the digits as spoken (0.3 s of slack at each end for word times).
    const start = Math.min(...onCaller.map((w) => w.start));
    const end = Math.max(...onCaller.map((w) => w.end));
    assert.ok(start <= digitsStart + 0.3 && end >= digitsEnd - 0.3, `covers ${digitsStart.toFixed(2)}–${digitsEnd.toFixed(2)}: ${what}`);
    assert.ok(!windows.some((w) => w.channel === 0), `nothing on the agent's channel: ${what}`);
  });

  // Number-dense turns: no cue is said and the number is too short for a run to count anywhere (under 8 words),
  // so only the turn made of digits makes the window.
  test('no cue, four digits read alone: the caller\'s turn of digits is a window whole', async () => {
    const agent = speak('okay, go ahead', path.join(dir, 'agent-2.wav'));
    const agentSeconds = durationOf(agent);
    const digitsRaw = speakFestival('seven one three oh', path.join(dir, 'digits-2.wav'));
    const digitsStart = agentSeconds + 0.8;
    const digitsEnd = digitsStart + durationOf(digitsRaw);
    const caller = path.join(dir, 'caller-2.wav');
    ffmpeg(['-i', digitsRaw, '-af', `adelay=${Math.round(digitsStart * 1000)}`, caller]);
    const telephone = path.join(dir, 'call-2-8k.wav');
    ffmpeg(['-i', stereo(agent, caller, path.join(dir, 'call-2.wav')), '-ar', '8000', '-ac', '2', '-c:a', 'pcm_mulaw', telephone]);

    const job = await transcribeAndWait(svc, telephone, { fields: { numtrans: 'false' } });
    const vendorA = json(await transcriptShape(svc, job.jobId, 'vendorA'));
    const channels = [0, 1].map((channel) => ({
      channel,
      words: vendorA.utterances
        .filter((u: { metadata: { channel: number } }) => u.metadata.channel === channel)
        .flatMap((u: { events: { word: string; start: number; end: number; confidence: number }[] }) => u.events),
    }));
    const windows = findSensitiveWindows({ channels, audioSeconds: durationOf(telephone) }, { kinds: ['CVV', 'CreditCardNumber', 'USBankAccountNumber'] });
    const what = `heard ${JSON.stringify(channels.map((c) => c.words.map((w: { word: string }) => w.word).join(' ')))}; windows ${JSON.stringify(windows)}`;
    const onCaller = windows.filter((w) => w.channel === 1);
    assert.ok(onCaller.some((w) => w.source === 'number' && w.reason?.startsWith('a turn')), `a number-dense turn window on the caller: ${what}`);
    const start = Math.min(...onCaller.map((w) => w.start));
    const end = Math.max(...onCaller.map((w) => w.end));
    assert.ok(start <= digitsStart + 0.3 && end >= digitsEnd - 0.3, `covers ${digitsStart.toFixed(2)}–${digitsEnd.toFixed(2)}: ${what}`);
    assert.ok(!windows.some((w) => w.channel === 0), `nothing on the agent's channel: ${what}`);
  });
});
