// Sensitive windows in audio jobs (issue 17): a window an agent desktop marked (`sensitiveWindows`), a window a
// finder found (an injected `findWindows`), and the project's agent-only mode redact their channel's audio for
// their whole time and the words in them, whatever was recognized; the job's record reports the windows by
// source and the re-recognition check of the redacted copy. A stereo 8 kHz call spoken with espeak-ng: the agent
// asks for the card number on the left, the caller reads digits on the right. Real server, ffmpeg and engine.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { SensitiveWindow } from '../../src/redact/windows/types.js';
import type { Transcript } from '../../src/transcript/types.js';
import { TRANSCRIPT_FORMATS } from '../../src/transcript/index.js';
import { filePcm } from '../audio/dtmfSignals.js';
import { durationOf, ffmpeg, hasTool, speak, tempDir } from '../helpers/audio.js';
import { type Dialect, json, startTestService, type TestService } from '../helpers/harness.js';
import { blobExists, blobKeys } from '../helpers/blobs.js';
import { transcribeAndWait } from '../helpers/jobs.js';
import { multipart } from '../helpers/multipart.js';
import { required } from '../helpers/require.js';

const canRun = hasTool('ffmpeg') && hasTool('espeak-ng') && fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us');
const RATE = 8000;
/** Neighbouring digits of the card as read: none may survive in any text. */
const CARD_PAIRS = ['four five', 'five three', 'three nine', 'one four', 'four eight', 'eight eight', 'oh three', 'three four', 'four three', 'six four', 'four six', 'six seven'];
const DIGIT_WORDS = new Set(['zero', 'oh', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine']);

interface Call {
  file: string;
  /** Where the caller reads the digits (channel 1), seconds. */
  digitsStart: number;
  digitsEnd: number;
  duration: number;
}

/** Agent (left) asks; caller (right) answers, reads the digits, thanks. */
function makeCall(dir: string): Call {
  const agent = speak('Thank you for calling. Can I have the long number on the front of your card please?', path.join(dir, 'agent.wav'));
  const intro = speak('Yes of course, here it is.', path.join(dir, 'intro.wav'));
  const digits = speak('four five three nine, one four eight eight, oh three four three, six four six seven.', path.join(dir, 'digits.wav'));
  const outro = speak('Thank you, that was all I needed today.', path.join(dir, 'outro.wav'));
  const agentSeconds = durationOf(agent);
  const gap = 0.6;
  const digitsStart = agentSeconds + gap + durationOf(intro) + gap;
  const digitsEnd = digitsStart + durationOf(digits);
  const caller = path.join(dir, 'caller.wav');
  const silence = (d: number) => ['-f', 'lavfi', '-i', `anullsrc=r=16000:cl=mono:d=${d.toFixed(4)}`];
  ffmpeg([...silence(agentSeconds + gap), '-i', intro, ...silence(gap), '-i', digits, ...silence(gap), '-i', outro,
    '-filter_complex', '[0:a][1:a][2:a][3:a][4:a][5:a]concat=n=6:v=0:a=1[a]', '-map', '[a]', '-ar', '16000', '-c:a', 'pcm_s16le', caller]);
  const duration = durationOf(caller);
  const file = path.join(dir, 'call.wav');
  ffmpeg(['-i', agent, '-i', caller,
    '-filter_complex', `[0:a]apad=whole_dur=${duration.toFixed(4)}[l];[l][1:a]join=inputs=2:channel_layout=stereo[s];[s]aresample=${RATE}[a]`,
    '-map', '[a]', '-c:a', 'pcm_s16le', file]);
  return { file, digitsStart, digitsEnd, duration };
}

/** The job's redacted copy, fetched through the API. */
async function redactedCopy(svc: TestService, jobId: string, dir: string): Promise<string> {
  const res = await svc.request({ method: 'GET', url: `/asr/jobs/${jobId}/audio?redacted=true` });
  assert.equal(res.statusCode, 200, res.body);
  const out = path.join(dir, `${jobId}.wav`);
  fs.writeFileSync(out, res.rawPayload);
  return out;
}

/** Every transcript shape of the job, redacted and as stored. */
async function allShapes(svc: TestService, jobId: string): Promise<string[]> {
  const texts: string[] = [];
  for (const format of TRANSCRIPT_FORMATS) {
    for (const flag of ['true', 'false']) {
      const r = await svc.request({ method: 'GET', url: `/asr/jobs/${jobId}/transcript?format=${format}&redacted=${flag}` });
      assert.equal(r.statusCode, 200, `${format}: ${r.body}`);
      texts.push(r.body);
    }
  }
  return texts;
}

/** The caller's words (channel_2) of the `transcript` shape, with times. */
async function callerWords(svc: TestService, jobId: string): Promise<{ word: string; start: number; end: number }[]> {
  const results: any[] = json(await svc.request({ method: 'GET', url: `/asr/jobs/${jobId}/transcript?format=transcript` })).results;
  return results.filter((r) => r.type === 'word' && r.channel === 'channel_2').map((r) => ({ word: r.alternatives[0].content, start: r.start_time, end: r.end_time }));
}

function assertSilenced(samples: Int16Array, from: number, to: number, what: string) {
  for (let i = Math.ceil(from * RATE); i < Math.floor(to * RATE) && i < samples.length; i++) {
    if (samples[i] !== 0) assert.fail(`${what}: sample ${i} (${(i / RATE).toFixed(3)} s) is ${samples[i]}, not silenced`);
  }
}

function assertUnchangedOutside(original: Int16Array, edited: Int16Array, spans: { start: number; end: number }[], what: string): number {
  assert.equal(edited.length, original.length, `${what}: length`);
  const inside = (i: number) => spans.some((s) => i >= Math.floor(s.start * RATE) && i < Math.ceil(s.end * RATE));
  let compared = 0;
  for (let i = 0; i < original.length; i++) {
    if (inside(i)) continue;
    compared++;
    if (original[i] !== edited[i]) assert.fail(`${what}: sample ${i} (${(i / RATE).toFixed(3)} s) changed outside the redacted spans`);
  }
  return compared;
}

describe('client-marked and found sensitive windows in audio jobs', { skip: required(!canRun && 'needs ffmpeg, espeak-ng and PocketSphinx') }, () => {
  let svc: TestService;
  let dir: string;
  let call: Call;
  /** What the injected finder answers for the next job (set by a test). */
  let finderWindows: SensitiveWindow[] = [];
  let finderSaw: Transcript | undefined;

  before(async () => {
    svc = await startTestService('sqlite', {
      overrides: {
        findWindows: (transcript) => {
          finderSaw = transcript;
          return finderWindows;
        },
      },
    });
    dir = tempDir('scrubline-windows-');
    call = makeCall(dir);
  });
  after(async () => {
    await svc?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a marked window redacts exactly its span on the named channel, in audio and every transcript shape; the report counts it and the recheck hears no digit', async () => {
    const mark = { start: Number(call.digitsStart.toFixed(3)), end: Number(call.digitsEnd.toFixed(3)), channel: 1 };
    // Marks alone ask for redaction: no scrub flag, no kinds.
    const job = await transcribeAndWait(svc, call.file, { fields: { sensitiveWindows: JSON.stringify([mark]), scrubsound: 'silence' }, waitSeconds: 300 });
    assert.equal(job.redactionStatus, 'completed');

    // The report: one window, from a mark, never a value; seconds on the caller's channel only.
    const windows = job.redaction.windows;
    assert.equal(windows.mode, 'windows');
    assert.deepEqual(windows.bySource, { entity: 0, cue: 0, number: 0, mark: 1, keypad: 0, insight: 0, mode: 0 });
    assert.deepEqual(windows.list, [{ channel: 1, start: mark.start, end: mark.end, kind: 'SENSITIVE', source: 'mark' }]);
    assert.equal(windows.secondsByChannel[0], 0);
    assert.ok(Math.abs(windows.secondsByChannel[1] - (mark.end - mark.start)) < 0.01, JSON.stringify(windows));
    assert.equal(job.redaction.recheck.checked, true);
    assert.equal(job.redaction.recheck.digitsInWindows, 0, JSON.stringify(job.redaction.recheck));

    // Audio: the caller's channel is silent over the whole mark; the agent's channel is untouched; the caller's
    // channel outside the redacted span is sample for sample the original, and that span is the mark (grown at
    // most over a word cut by its edges).
    const spans: { channel: number; start: number; end: number }[] = job.redaction.audio.spans;
    assert.deepEqual([...new Set(spans.map((s) => s.channel))], [1], JSON.stringify(spans));
    for (const s of spans) assert.ok(s.start >= mark.start - 0.8 && s.end <= mark.end + 0.8, `span ${JSON.stringify(s)} is far wider than the mark`);
    const copy = await redactedCopy(svc, job.jobId, dir);
    const caller = filePcm(copy, 1);
    assertSilenced(caller, mark.start, mark.end, 'caller channel inside the mark');
    const compared = assertUnchangedOutside(filePcm(call.file, 1), caller, spans, 'caller channel');
    assert.ok(compared > RATE * (call.duration - (mark.end - mark.start) - 2), `${compared} caller samples compared`);
    assertUnchangedOutside(filePcm(call.file, 0), filePcm(copy, 0), [], 'agent channel');

    // Text: inside the mark only the mask; the caller's words before and after it are still there.
    const words = await callerWords(svc, job.jobId);
    const inside = words.filter((w) => w.start < mark.end && w.end > mark.start);
    assert.ok(inside.length > 0, 'the recognizer wrote words over the digits');
    assert.deepEqual([...new Set(inside.map((w) => w.word))], ['[SENSITIVE]'], JSON.stringify(inside));
    assert.ok(words.some((w) => w.end <= mark.start && w.word !== '[SENSITIVE]'), 'the words before the mark are kept');
    for (const text of await allShapes(svc, job.jobId)) {
      const lower = text.toLowerCase();
      assert.match(lower, /\[sensitive\]/);
      // No two digits of the card read together survive, as words or as numerals.
      const plain = lower.replace(/[^a-z0-9]+/g, ' ');
      for (const pair of CARD_PAIRS) assert.ok(!plain.includes(pair), `"${pair}" survived: ${plain.slice(0, 300)}`);
      assert.ok(!/4539|1488|3436|6467/.test(lower), 'a group of the card survived as numerals');
    }
  });

  test('an injected finder\'s windows are applied in text and audio, and reported by source', async () => {
    finderWindows = [{ channel: 1, start: call.digitsStart, end: call.digitsEnd, kind: 'CreditCardNumber', source: 'cue', reason: 'test finder' }];
    try {
      const job = await transcribeAndWait(svc, call.file, { fields: { scrubaudio: 'true', types: 'Person', scrubsound: 'silence' }, waitSeconds: 300 });
      assert.equal(job.redactionStatus, 'completed');
      assert.ok(finderSaw && finderSaw.channels.some((c) => c.words.some((w) => DIGIT_WORDS.has(w.word))), 'the finder reads the words as recognized');
      assert.equal(job.redaction.windows.bySource.cue, 1);
      assert.ok(job.redaction.windows.list.some((w: any) => w.source === 'cue' && w.kind === 'CreditCardNumber' && w.channel === 1));
      assert.ok(!JSON.stringify(job.redaction).includes('test finder'), 'reasons stay out of the record');
      assert.equal(job.redaction.recheck.digitsInWindows, 0);
      const copy = await redactedCopy(svc, job.jobId, dir);
      assertSilenced(filePcm(copy, 1), call.digitsStart, call.digitsEnd, 'caller channel inside the found window');
      const inside = (await callerWords(svc, job.jobId)).filter((w) => w.start < call.digitsEnd && w.end > call.digitsStart);
      assert.ok(inside.length > 0);
      assert.deepEqual([...new Set(inside.map((w) => w.word))], ['[CREDIT_CARD_NUMBER]'], JSON.stringify(inside));
    } finally {
      finderWindows = [];
    }
  });

  test("agent-only mode: the caller's channel is silenced whole and all its words masked; the agent's stays", async () => {
    const publish = await svc.request({
      method: 'POST',
      url: '/system/cache/v2/publish',
      payload: { data: JSON.stringify({ sid: 'paranoid', scrubaudio: true, scrubtext: true, windowMode: 'agent-only', rules: [{ name: 'CreditCardNumber', active: true }] }) },
    });
    assert.equal(publish.statusCode, 200, publish.body);
    const job = await transcribeAndWait(svc, call.file, { fields: { sid: 'paranoid', scrubsound: 'silence' }, waitSeconds: 300 });
    assert.equal(job.redactionStatus, 'completed');
    assert.equal(job.redaction.windows.mode, 'agent-only');
    assert.equal(job.redaction.windows.bySource.mode, 1);
    assert.ok(Math.abs(job.redaction.windows.secondsByChannel[1] - call.duration) < 0.05, JSON.stringify(job.redaction.windows));
    assert.equal(job.redaction.recheck.digitsInWindows, 0);
    const copy = await redactedCopy(svc, job.jobId, dir);
    const caller = filePcm(copy, 1);
    assertSilenced(caller, 0, caller.length / RATE, 'the caller channel');
    const agentSpans = (job.redaction.audio.spans as { channel: number; start: number; end: number }[]).filter((s) => s.channel === 0);
    assertUnchangedOutside(filePcm(call.file, 0), filePcm(copy, 0), agentSpans, 'agent channel');
    const words = await callerWords(svc, job.jobId);
    assert.ok(words.length > 0);
    assert.deepEqual([...new Set(words.map((w) => w.word))], ['[SENSITIVE]'], JSON.stringify(words));
  });
});

for (const dialect of ['sqlite', 'postgres'] as Dialect[]) {
  describe(`marked windows that cannot be done as asked are refused (${dialect})`, { skip: required(!hasTool('ffmpeg') && 'needs ffmpeg') }, () => {
    let svc: TestService;
    let dir: string;
    let mono: string;

    before(async () => {
      svc = await startTestService(dialect, { workers: false });
      dir = tempDir('scrubline-windows-400-');
      mono = path.join(dir, 'mono.wav');
      ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=8000:duration=3', '-c:a', 'pcm_s16le', mono]);
    });
    after(async () => {
      await svc?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    const submit = (fields: Record<string, string>) =>
      svc.request({ method: 'POST', url: '/asr/transcribe', ...multipart(fields, [{ name: 'audio', filename: 'mono.wav', content: fs.readFileSync(mono) }]) });

    test('a mark on a channel the recording does not have is a 400 naming it, and no job is queued', async () => {
      const res = await submit({ sensitiveWindows: JSON.stringify([{ start: 0.5, end: 1.5, channel: 1 }]) });
      assert.equal(res.statusCode, 400, res.body);
      const problem = json(res);
      assert.match(problem.detail, /channel/);
      assert.ok(JSON.stringify(problem).includes('sensitiveWindows[0].channel'), res.body);
      assert.equal(json(await svc.request({ method: 'GET', url: '/asr/jobs?limit=10' })).jobs.length, 0);
    });

    test('end not after start, a negative channel, an unknown kind, or a mark that is not JSON: 400', async () => {
      for (const value of [
        JSON.stringify([{ start: 2, end: 1, channel: 0 }]),
        JSON.stringify([{ start: 1, end: 1, channel: 0 }]),
        JSON.stringify([{ start: 0, end: 1, channel: -1 }]),
        JSON.stringify([{ start: -1, end: 1, channel: 0 }]),
        JSON.stringify([{ start: 0, end: 1, channel: 0, kind: 'CardNumberz' }]),
        JSON.stringify([{ start: 0, end: 1 }]),
        '[{start: 0',
      ]) {
        const res = await submit({ sensitiveWindows: value });
        assert.equal(res.statusCode, 400, `${value}: ${res.body}`);
      }
      // A good mark on the channel the recording has is accepted.
      const ok = await submit({ sensitiveWindows: JSON.stringify([{ start: 0.5, end: 1.5, channel: 0, kind: 'CreditCardNumber' }]) });
      assert.equal(ok.statusCode, 202, ok.body);
      assert.equal(json(ok).redactionStatus, 'pending');
    });
  });

  describe(`client-marked windows on post-call records (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService(dialect, { workers: false });
    });
    after(async () => {
      await svc?.close();
    });

    // The caller (channel 1) reads digits the recognizer half missed ("for five tree nine"): no entity is found
    // in them, only the mark says they are sensitive.
    const record = (eventId: string, marks: unknown) => ({
      eventId,
      redactionRequest: { sensitiveWindows: marks },
      utterances: [
        { start: 0, end: 3, channel: 0, speaker: 0, text: 'can i have the long number on the front', formattedText: 'Can I have the long number on the front?' },
        { start: 3.5, end: 6, channel: 1, speaker: 1, text: 'for five tree nine one for ate ate', formattedText: 'For five tree nine one for ate ate.' },
        { start: 6.5, end: 8, channel: 0, speaker: 0, text: 'thank you very much', formattedText: 'Thank you very much.' },
      ],
      vendorATranscript: {
        utterances: [
          { start: 3.5, end: 6, metadata: { channel: 1 }, events: [{ word: 'for', start: 3.5, end: 3.8 }, { word: 'five', start: 3.9, end: 4.2 }, { word: 'tree', start: 4.3, end: 4.6 }, { word: 'thanks', start: 6.1, end: 6.4 }] },
          { start: 0, end: 3, metadata: { channel: 0 }, events: [{ word: 'number', start: 3.6, end: 3.9 }] },
        ],
      },
    });

    test('words and utterances inside a marked window are masked in the stored record; the rest is kept', async () => {
      const res = await svc.request({ method: 'POST', url: '/cache/post-call', payload: record('marked-1', [{ start: 3.4, end: 6.05, channel: 1, kind: 'CreditCardNumber' }]) });
      assert.equal(res.statusCode, 201, res.body);
      const row = await svc.services.store.database.db.selectFrom('conversations').selectAll().where('event_id', '=', 'marked-1').execute();
      const got = json(await svc.request({ method: 'GET', url: '/cache/post-call/marked-1' }));
      const all = `${JSON.stringify(row)}\n${JSON.stringify(got)}`.toLowerCase();
      for (const value of ['tree nine', 'for five', 'ate ate', '"tree"', '"five"']) assert.ok(!all.includes(value), `"${value}" survived in the stored record`);
      const utterances = got.utterances ?? got.record?.utterances;
      assert.equal(utterances[1].text, '[CREDIT_CARD_NUMBER]');
      assert.equal(utterances[1].formattedText, '[CREDIT_CARD_NUMBER]');
      assert.match(utterances[0].text, /long number on the front/, "the agent's line (channel 0) is kept");
      assert.match(utterances[2].text, /thank you/);
      const events = (got.vendorATranscript ?? got.record?.vendorATranscript).utterances[0].events.map((e: any) => e.word);
      assert.deepEqual(events, ['[CREDIT_CARD_NUMBER]', '[CREDIT_CARD_NUMBER]', '[CREDIT_CARD_NUMBER]', 'thanks']);
      // A word of the agent's channel at the same time is not the caller's: kept.
      assert.equal((got.vendorATranscript ?? got.record?.vendorATranscript).utterances[1].events[0].word, 'number');
      assert.deepEqual(json(res).redaction.windows.bySource, { mark: 1 });
    });

    test('a mark on a channel the record does not have, or with end before start, is a 400 and nothing is stored', async () => {
      for (const [eventId, marks] of [['marked-bad-channel', [{ start: 1, end: 2, channel: 4 }]], ['marked-bad-order', [{ start: 2, end: 1, channel: 1 }]]] as const) {
        const res = await svc.request({ method: 'POST', url: '/cache/post-call', payload: record(eventId, marks) });
        assert.equal(res.statusCode, 400, res.body);
        assert.ok(JSON.stringify(json(res)).includes('redactionRequest.sensitiveWindows[0]'), res.body);
        assert.equal((await svc.request({ method: 'GET', url: `/cache/post-call/${eventId}` })).statusCode, 404);
      }
    });
  });
}

describe('the re-recognition check fails the redaction closed when widening cannot silence a digit it hears', { skip: required(!hasTool('ffmpeg') && 'needs ffmpeg') }, () => {
  let svc: TestService;
  let dir: string;
  let stereoFile: string;
  let calls = 0;
  // A recognizer that hears "four five" at 1-2 s on channel 1 whatever the audio says (the redacted copy too).
  const recognize = async (): Promise<Transcript> => {
    calls++;
    return {
      model: 'en-us:test', engine: 'test', language: 'en-us', audioSeconds: 4, sourceSampleRate: RATE, processingSeconds: 0,
      channels: [
        { channel: 0, words: [{ word: 'hello', start: 0.2, end: 0.6, confidence: 1 }], segments: [] },
        { channel: 1, words: [{ word: 'four', start: 1.1, end: 1.4, confidence: 1 }, { word: 'five', start: 1.5, end: 1.8, confidence: 1 }], segments: [] },
      ],
    };
  };

  before(async () => {
    svc = await startTestService('sqlite', { overrides: { recognize } });
    dir = tempDir('scrubline-windows-recheck-');
    stereoFile = path.join(dir, 'stereo.wav');
    ffmpeg(['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=${RATE}:duration=4`, '-ac', '2', '-c:a', 'pcm_s16le', stereoFile]);
  });
  after(async () => {
    await svc?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('digits heard again whatever is muted: widened once, heard again over the muted stretch, the job fails with its record; the original is kept, no copy is left', async () => {
    const res = await svc.request({
      method: 'POST',
      url: '/asr/transcribe?wait=120',
      ...multipart({ sensitiveWindows: JSON.stringify([{ start: 1, end: 2, channel: 1 }]) }, [{ name: 'audio', filename: 'stereo.wav', content: fs.readFileSync(stereoFile) }]),
    });
    assert.equal(res.statusCode, 200, res.body);
    const job = json(res);
    assert.equal(job.status, 'failed', res.body);
    assert.equal(job.redactionStatus, 'failed');
    assert.match(job.message ?? job.error ?? res.body, /number/);
    // Recognized once; the copy heard, widened over what it heard, heard again over the muted stretch (no
    // widening can help there): given up, never tried again.
    assert.equal(calls, 3, 'recognized once, then the redacted copy twice');
    const recheck = job.redaction.recheck;
    assert.equal(recheck.converged, false);
    assert.deepEqual(recheck.rounds.map((r: any) => [r.round, r.heard, r.widened]), [[1, { digit: 2 }, 1], [2, { digit: 2 }, 0]]);
    assert.deepEqual(recheck.widened.map((w: any) => [w.channel, w.start, w.end, w.heard, w.where, w.round]), [[1, 0.8, 2.1, { digit: 2 }, 'inside', 1]]);
    assert.deepEqual(recheck.unrepaired.map((w: any) => [w.channel, w.start, w.end, w.heard]), [[1, 0.8, 2.1, { digit: 2 }]]);
    assert.ok(!JSON.stringify(job.redaction).includes('four'), 'kinds, never the words heard');
    const files = (await blobKeys(svc, `uploads/${job.jobId}/`)).map((key) => key.split('/').pop()!);
    assert.deepEqual(files.filter((f) => f.startsWith('redacted-')), [], 'the rejected copy is removed');
    assert.deepEqual(files, ['stereo.wav'], 'the original is kept (as for any failed redaction)');
    const transcript = await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/transcript?format=text` });
    assert.notEqual(transcript.statusCode, 200, 'no transcript of a failed redaction');
  });
});
