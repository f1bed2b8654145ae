// Issue 35's must-show on a recording: a stereo call laid out by hand — the agent speaks, the caller cuts in a
// second into the agent's sentence, both fall silent for five seconds, the agent speaks again — gives the figures
// that layout implies (the caller interrupts the agent, the agent never the caller; a quiet stretch where the
// silence was put), and every per-party figure equals the documented definition worked out again here from the
// job's own word times (talk time = union of a side's word intervals; talk speed = words per minute of it;
// interruptions = a stretch starting strictly inside the other's; non-talk = gaps of 2 s or more).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { durationOf, ffmpeg, hasFestivalVoice, hasTool, speakFestival, tempDir } from '../helpers/audio.js';
import { startTestService, type TestService } from '../helpers/harness.js';
import { transcribeAndWait } from '../helpers/jobs.js';
import { required } from '../helpers/require.js';

const canRun = hasTool('ffmpeg') && hasFestivalVoice() && fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us');

type Span = { start: number; end: number };
const ms = (x: number) => Math.round(x * 1000) / 1000;

/** The union of intervals, sorted. */
function union(spans: Span[]): Span[] {
  const out: Span[] = [];
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    const last = out.at(-1);
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}
const total = (spans: Span[]) => spans.reduce((n, s) => n + s.end - s.start, 0);

describe('a stereo call laid out by hand: figures per party', { skip: required(!canRun && "ffmpeg, festival's US voice or the PocketSphinx model is not installed") }, () => {
  let svc: TestService;
  let dir: string;
  let call: string;
  /** Where the five seconds of silence on both channels begin and end (s). */
  let quiet: Span;
  before(async () => {
    svc = await startTestService('sqlite');
    dir = tempDir();
    const first = speakFestival('thank you for calling the customer service line of the bank my name is on the screen how can i help you today', path.join(dir, 'a1.wav'));
    const reply = speakFestival('yes hello i lost my card yesterday and i need a new one', path.join(dir, 'b.wav'));
    const last = speakFestival('i can order a replacement card for you right now', path.join(dir, 'a2.wav'));
    const cutIn = 1.5;
    const talkEnd = Math.max(durationOf(first), cutIn + durationOf(reply));
    quiet = { start: talkEnd, end: talkEnd + 5 };
    const end = quiet.end + durationOf(last);
    // left: the first sentence, silence to the end of the quiet stretch, the last sentence; right: the reply 1.5 s in.
    ffmpeg([
      '-i', first, '-i', reply, '-i', last,
      '-filter_complex',
      `[0:a]aresample=16000,apad=whole_dur=${quiet.end.toFixed(3)}[a1];[a1][2:a]concat=n=2:v=0:a=1,aresample=16000,apad=whole_dur=${end.toFixed(3)}[l];` +
        `[1:a]aresample=16000,adelay=${Math.round(cutIn * 1000)},apad=whole_dur=${end.toFixed(3)}[r];[l][r]join=inputs=2:channel_layout=stereo[a]`,
      '-map', '[a]', path.join(dir, 'call.wav'),
    ]);
    call = path.join(dir, 'call.wav');
  });
  after(async () => {
    await svc.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('interruptions, talk speed and quiet stretches per party', async () => {
    const job = await transcribeAndWait(svc, call, { fields: { analytics: 'true', agent_location: 'left' } });
    const a = job.analytics;
    // Each channel's words, as the job's vendorA transcript gives them (channel 0 = left = the agent).
    const words = new Map<number, Span[]>([[0, []], [1, []]]);
    for (const u of job.vendorATranscript.utterances as { metadata: { channel: number }; events: { start: number; end: number }[] }[]) {
      words.get(u.metadata.channel)!.push(...u.events.map((e) => ({ start: e.start, end: e.end })));
    }
    const talk = new Map([...words].map(([ch, w]) => [ch, union(w)]));
    assert.ok(words.get(0)!.length > 10 && words.get(1)!.length > 5, 'both parties were heard');

    // Talk time and talk speed per party: the definition, worked out again.
    assert.equal(a.talk_time_agent, ms(total(talk.get(0)!)));
    assert.equal(a.talk_time_caller, ms(total(talk.get(1)!)));
    const wpm = (ch: number) => Math.round((words.get(ch)!.length / total(talk.get(ch)!)) * 60 * 10) / 10;
    assert.equal(a.words_per_minute_agent, wpm(0));
    assert.equal(a.words_per_minute_caller, wpm(1));
    const agent = a.speakers.find((s: { role: string }) => s.role === 'agent');
    const caller = a.speakers.find((s: { role: string }) => s.role === 'caller');
    assert.equal(agent.words, words.get(0)!.length);
    assert.equal(caller.words, words.get(1)!.length);

    // Interruptions: a stretch of one side starting strictly inside a stretch of the other's.
    const cutsIn = (who: number, on: number) =>
      talk.get(who)!.filter((s) => talk.get(on)!.some((t) => t.start < s.start && s.start < t.end)).map((s) => ms(s.start));
    const byPair = (who: number, on: number) => a.interruptions.find((i: { speaker: number; interrupted: number }) => i.speaker === who && i.interrupted === on)?.at ?? [];
    assert.deepEqual(byPair(1, 0), cutsIn(1, 0));
    assert.deepEqual(byPair(0, 1), cutsIn(0, 1));
    // The layout: the caller cut in 1.5 s into the agent's sentence (the reply's first word, a little after).
    const first = byPair(1, 0)[0];
    assert.ok(first >= 1.5 && first < 2.5, `the caller cuts in on the agent at ${first}`);
    assert.equal(a.interruptions_caller, cutsIn(1, 0).length);
    assert.equal(a.interruptions_agent, cutsIn(0, 1).length);
    assert.equal(caller.interruptions, cutsIn(1, 0).length);
    assert.equal(agent.interrupted, cutsIn(1, 0).length);

    // Quiet stretches: every gap of 2 s or more in both parties' talk, up to the recording's end; the five seconds
    // of silence put on both channels lie inside one.
    const all = union([...talk.get(0)!, ...talk.get(1)!]);
    const gaps: Span[] = [];
    let from = 0;
    for (const t of [...all, { start: job.duration, end: job.duration }]) {
      if (ms(t.start - from) >= 2) gaps.push({ start: ms(from), end: ms(t.start) });
      from = Math.max(from, t.end);
    }
    assert.deepEqual(a.non_talk.map((n: Span) => ({ start: n.start, end: n.end })), gaps);
    assert.ok(
      a.non_talk.some((n: Span) => n.start <= quiet.start + 0.01 && n.end >= quiet.end - 0.01),
      `a quiet stretch holds the silence put at ${quiet.start.toFixed(2)}-${quiet.end.toFixed(2)}: ${JSON.stringify(a.non_talk)}`,
    );
  });
});
