// Every output shape of one transcript agrees on the words and their times, and every object shape validates
// against its schema (resources 3, 4, 8, 11).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { check } from '../../src/schema/validator.js';
import { renderTranscript, TRANSCRIPT_FORMATS, isTranscriptFormat, utterancesFor } from '../../src/transcript/index.js';
import type { RenderMeta } from '../../src/transcript/meta.js';
import { computeTextInfo, withoutOvertalk } from '../../src/transcript/textinfo.js';
import type { Transcript, Word } from '../../src/transcript/types.js';
import { META, syntheticCall } from './fixture.js';

const call = syntheticCall();
const wordsOf = (channel: number) => call.channels[channel].words;
const textOf = (words: readonly Word[]) => words.map((w) => w.word);

function render(meta: RenderMeta = META, transcript: Transcript = call) {
  return {
    vendorA: renderTranscript('vendorA', transcript, meta).body,
    vendorB: renderTranscript('vendorB', transcript, meta).body,
    shape: renderTranscript('transcript', transcript, meta).body,
    records: renderTranscript('utterances', transcript, meta).body,
    text: renderTranscript('text', transcript, meta).body,
    srt: renderTranscript('srt', transcript, meta).body,
    vtt: renderTranscript('vtt', transcript, meta).body,
  };
}

interface ParsedCue {
  index: number;
  start: number;
  end: number;
  text: string;
}

/** Parses SRT or VTT strictly enough to catch syntax slips. */
function parseCues(body: string, kind: 'srt' | 'vtt'): ParsedCue[] {
  let rest = body;
  if (kind === 'vtt') {
    assert.ok(body.startsWith('WEBVTT\n\n'), 'VTT starts with the WEBVTT header and a blank line');
    rest = body.slice('WEBVTT\n\n'.length);
  }
  assert.ok(rest.endsWith('\n\n'), 'the last cue ends with a blank line');
  const sep = kind === 'srt' ? ',' : '\\.';
  const timing = new RegExp(`^(\\d{2,}):(\\d{2}):(\\d{2})${sep}(\\d{3}) --> (\\d{2,}):(\\d{2}):(\\d{2})${sep}(\\d{3})$`);
  return rest
    .slice(0, -2)
    .split('\n\n')
    .map((block, i) => {
      const lines = block.split('\n');
      assert.equal(lines[0], String(i + 1), 'cue numbers count from 1');
      const m = timing.exec(lines[1]);
      assert.ok(m, `timing line "${lines[1]}"`);
      const t = (h: string, mi: string, s: string, ms: string) => Number(h) * 3600 + Number(mi) * 60 + Number(s) + Number(ms) / 1000;
      const start = t(m[1], m[2], m[3], m[4]);
      const end = t(m[5], m[6], m[7], m[8]);
      assert.ok(end > start, `cue ${i + 1} ends after it starts`);
      const text = lines.slice(2);
      assert.ok(text.length >= 1 && text.length <= 2, 'one or two text lines');
      // SRT shows the "Agent: " prefix, so it counts; the VTT voice tag is markup.
      for (const line of text) assert.ok(line.replace(/^<v [^>]+>/, '').length <= 42, `line "${line}" fits 42 characters`);
      return { index: i + 1, start, end, text: text.join(' ') };
    });
}

/** Speaker of a cue's text and the words it shows. */
function cueWords(text: string, kind: 'srt' | 'vtt'): { channel: number; words: string[] } {
  const m = kind === 'srt' ? /^(Agent|Caller): (.*)$/.exec(text) : /^<v (Agent|Caller)>(.*)$/.exec(text);
  assert.ok(m, `speaker in "${text}"`);
  return { channel: m[1] === 'Agent' ? 0 : 1, words: m[2].split(' ') };
}

describe('transcript shapes agree', () => {
  const out = render();
  const utterances = utterancesFor(call, META);

  test('every object shape validates against its schema', () => {
    assert.deepEqual(check('VendorATranscript', out.vendorA), []);
    assert.deepEqual(check('VendorBTranscript', out.vendorB), []);
    assert.deepEqual(check('TranscriptShape', out.shape), []);
    for (const record of out.records) assert.deepEqual(check('Utterance', record), []);
    const punctuated = render({ ...META, numtrans: true, punctuate: true });
    assert.deepEqual(check('VendorATranscript', punctuated.vendorA), []);
    assert.deepEqual(check('TranscriptShape', punctuated.shape), []);
    for (const record of punctuated.records) assert.deepEqual(check('Utterance', record), []);
    const bare = render({});
    assert.deepEqual(check('VendorATranscript', bare.vendorA), []);
    assert.deepEqual(check('VendorBTranscript', bare.vendorB), []);
    assert.deepEqual(check('TranscriptShape', bare.shape), []);
  });

  test('vendorA events carry each channel\'s words with their times', () => {
    for (const channel of [0, 1]) {
      const events = out.vendorA.utterances!.filter((u) => u.metadata?.channel === channel).flatMap((u) => u.events!);
      assert.deepEqual(
        events.map((e) => [e.word, e.start, e.end, e.confidence]),
        wordsOf(channel).map((w) => [w.word, w.start, w.end, w.confidence]),
      );
    }
    for (const [i, u] of out.vendorA.utterances!.entries()) {
      assert.equal(u.metadata?.uttid, i);
      assert.equal(u.start, u.events![0].start);
      assert.equal(u.end, u.events![u.events!.length - 1].end);
    }
  });

  test('json-v2 word results carry the same words and times', () => {
    const words = out.shape.results!.filter((r) => r.type === 'word');
    for (const channel of [0, 1]) {
      const own = words.filter((r) => r.channel === `channel_${channel + 1}`);
      assert.deepEqual(
        own.map((r) => [r.alternatives![0].content, r.start_time, r.end_time, r.alternatives![0].confidence]),
        wordsOf(channel).map((w) => [w.word, w.start, w.end, w.confidence]),
      );
      for (const r of own) assert.equal(r.alternatives![0].speaker, channel === 0 ? 'S1' : 'S2');
    }
    assert.equal(words.length, 62);
  });

  test('resource 11 utterances: same words, spans from the first word\'s start to the last word\'s end', () => {
    assert.equal(out.records.length, out.vendorA.utterances!.length);
    for (const [i, record] of out.records.entries()) {
      const u = utterances[i];
      assert.equal(record.row, i);
      assert.equal(record.channel, u.channel);
      assert.equal(record.speaker, u.channel === 0 ? 0 : 1);
      assert.equal(record.start, u.words[0].start);
      assert.equal(record.end, u.words[u.words.length - 1].end);
      assert.equal(record.start, out.vendorA.utterances![i].start);
      assert.equal(record.end, out.vendorA.utterances![i].end);
      assert.equal(record.text, textOf(u.words).join(' '));
      assert.equal(record.formattedText, record.text, 'no numtrans/punctuate asked: formattedText is the text');
      assert.equal(record.jobId, META.jobId);
      assert.equal(record.campaignId, META.campaignId);
      assert.equal(record.conversationId, META.conversationId);
    }
    for (const channel of [0, 1]) {
      const words = out.records.filter((r) => r.channel === channel).flatMap((r) => r.text!.split(' '));
      assert.deepEqual(words, textOf(wordsOf(channel)));
    }
  });

  test('plain text: one line per utterance, with the role', () => {
    const lines = out.text.split('\n');
    assert.equal(lines.pop(), '', 'ends with a newline');
    assert.equal(lines.length, utterances.length);
    assert.equal(lines[0], 'Agent: thank you for calling acme how can i help you');
    assert.equal(lines[1], 'Caller: hi my card number is four one one oh');
    for (const channel of [0, 1]) {
      const label = channel === 0 ? 'Agent: ' : 'Caller: ';
      const words = lines.filter((l) => l.startsWith(label)).flatMap((l) => l.slice(label.length).split(' '));
      assert.deepEqual(words, textOf(wordsOf(channel)));
    }
    const mono = renderTranscript('text', { ...call, channels: [call.channels[0]] }, {}).body;
    assert.ok(mono.startsWith('thank you for calling'), 'no role on a mono recording');
  });

  for (const kind of ['srt', 'vtt'] as const) {
    test(`${kind.toUpperCase()} cues: syntax, and every word inside the span of its cue`, () => {
      const cues = parseCues(out[kind], kind);
      assert.ok(cues.length >= utterances.length);
      for (const channel of [0, 1]) {
        const words = wordsOf(channel);
        let next = 0;
        for (const cue of cues) {
          const shown = cueWords(cue.text, kind);
          if (shown.channel !== channel) continue;
          for (const word of shown.words) {
            const w = words[next++];
            assert.equal(word, w.word);
            assert.ok(w.start >= cue.start && w.end <= cue.end, `"${w.word}" ${w.start}-${w.end} inside cue ${cue.index} ${cue.start}-${cue.end}`);
          }
        }
        assert.equal(next, words.length, 'every word is in a cue');
      }
    });
  }

  test('SRT and VTT cue times are the same, written with a comma and with a full stop', () => {
    const srt = parseCues(out.srt, 'srt');
    const vtt = parseCues(out.vtt, 'vtt');
    assert.deepEqual(srt.map((c) => [c.start, c.end]), vtt.map((c) => [c.start, c.end]));
    assert.match(out.srt, /^1\n00:00:00,500 --> 00:00:04,400\nAgent: thank you for calling acme how can\ni help you\n\n2\n00:00:04,000 --> /);
    assert.match(out.vtt, /^WEBVTT\n\n1\n00:00:00\.500 --> 00:00:04\.400\n<v Agent>thank you for calling acme how can\ni help you\n\n/);
  });
});

describe('transcript shape details', () => {
  test('vendorA: header fields, streamtags echoed and coerced, no credentials, textinfo per channel', () => {
    const a = renderTranscript('vendorA', call, META).body;
    assert.equal(a.source, 'call-4481.wav');
    assert.equal(a.requestid, META.jobId);
    assert.equal(a.model, 'en-us:telephony');
    assert.equal(a.audiosecs, 30);
    assert.equal(a.nchannels, 2);
    assert.equal(a.recvdate, '2024-03-14 15:02:11.000');
    assert.equal(a.started, '2024-03-14 15:02:12.250');
    assert.equal(a.ended, '2024-03-14 15:02:19.500');
    assert.equal(a.donedate, '2024-03-14 15:02:19.500');
    assert.deepEqual(a.recvtz, ['UTC', 0]);
    const allWords = call.channels.flatMap((c) => c.words);
    assert.equal(a.confidence, Math.round((allWords.reduce((s, w) => s + w.confidence, 0) / allWords.length) * 1000) / 1000);
    assert.deepEqual(a.streamtags, { model: 'en-us:telephony', numtrans: true, punctuate: false, scrubtext: false, diarize: true, sid: 'acme' });
    // what was in force wins over what the request said
    const applied = renderTranscript('vendorA', call, { ...META, punctuate: true, model: 'en-us:wideband' }).body.streamtags;
    assert.equal(applied?.punctuate, true);
    assert.equal(applied?.model, 'en-us:wideband');
    assert.equal(a.utterances![0].metadata?.source, 'call-4481.wav');
    assert.equal(a.utterances![0].metadata?.model, 'en-us:telephony');
    const info = computeTextInfo(call, utterancesFor(call, META));
    assert.deepEqual(a.chaninfo, info.channels.map((c) => ({ textinfo: withoutOvertalk(c.textinfo) })));
    assert.deepEqual(a.textinfo, withoutOvertalk(info.overall));
    assert.equal('overtalk' in a.textinfo!, false);
  });

  test('vendorB: model array, overtalk in textinfoB, only its own streamtags and never the token', () => {
    const b = renderTranscript('vendorB', call, { ...META, streamtags: { emotion: 'true', gender: false, billing: 'acct-9', token: 'xyz', datahdr: 'hdr', numtrans: true } }).body;
    assert.deepEqual(b.model, ['en-us:telephony']);
    assert.deepEqual(b.streamtags, { emotion: true, gender: false, billing: 'acct-9', datahdr: 'hdr' });
    assert.deepEqual(b.textinfo?.overtalk, { count: [2, 0.333], avgtime: 0.95, time: [1.9, 0.063] });
    assert.deepEqual(b.chaninfo?.map((c) => c.textinfo?.overtalk?.time), [[1.5, 0.05], [0.4, 0.013]]);
    assert.equal(b.utterances?.length, 8);
  });

  test('json-v2: header, ordering, is_eos on the last word of each utterance', () => {
    const t = renderTranscript('transcript', call, META).body;
    assert.equal(t.format, '2.9');
    assert.deepEqual(t.job, { created_at: '2024-03-14T15:02:11.000Z', data_name: 'call-4481.wav', duration: 30, id: META.jobId, tracking: { reference: 'trk-4481' } });
    assert.deepEqual(t.metadata, {
      created_at: '2024-03-14T15:02:19.500Z',
      type: 'transcription',
      transcription_config: { language: 'en', diarization: 'channel', output_locale: 'en-US' },
    });
    const starts = t.results!.map((r) => r.start_time!);
    assert.deepEqual(starts, [...starts].sort((x, y) => x - y), 'results in time order');
    assert.equal(t.results!.filter((r) => r.is_eos).length, 8);
    assert.ok(t.results!.every((r) => r.type === 'word' && r.alternatives![0].language === 'en'));
    const eos = t.results!.filter((r) => r.is_eos).map((r) => [r.channel, r.alternatives![0].content, r.end_time]);
    assert.deepEqual(eos[0], ['channel_1', 'you', 4.4]);
  });

  test('json-v2 with punctuate: a full stop after the last word of each utterance, carrying is_eos', () => {
    const t = renderTranscript('transcript', call, { ...META, punctuate: true }).body;
    const results = t.results!;
    const stops = results.filter((r) => r.type === 'punctuation');
    assert.equal(stops.length, 8);
    for (const stop of stops) {
      const i = results.indexOf(stop);
      const word = results[i - 1];
      assert.equal(word.type, 'word');
      assert.equal(word.channel, stop.channel);
      assert.equal(word.is_eos, false);
      assert.equal(stop.is_eos, true);
      assert.equal(stop.start_time, word.end_time);
      assert.equal(stop.end_time, word.end_time);
      assert.equal(stop.alternatives![0].content, '.');
      assert.equal((stop as Record<string, unknown>).attaches_to, 'previous');
    }
    assert.ok(results.filter((r) => r.type === 'word').every((r) => r.is_eos === false));
  });

  test('agent on the right swaps speakers, not channels', () => {
    const t = renderTranscript('transcript', call, { ...META, agentLocation: 'right' }).body;
    const first = t.results![0];
    assert.equal(first.channel, 'channel_1');
    assert.equal(first.alternatives![0].speaker, 'S2');
    const records = renderTranscript('utterances', call, { ...META, agentLocation: 'right' }).body;
    assert.equal(records[0].speaker, 1);
    assert.equal(records[0].channel, 0);
    assert.ok(renderTranscript('text', call, { agentLocation: 'right' }).body.startsWith('Caller: thank you'));
  });

  test('numtrans and punctuate reach formattedText, text and subtitles, keeping the words in text', () => {
    const meta = { ...META, numtrans: true, punctuate: true };
    const records = renderTranscript('utterances', call, meta).body;
    assert.deepEqual(
      records.map((r) => r.formattedText),
      [
        'Thank you for calling acme how can I help you.',
        'Hi my card number is 4110.',
        'Can I have your date of birth please.',
        'It is 1984.',
        'My code is 55 and the year 2005.',
        'Thank you one of them is enough.',
        'Have a nice day.',
        '120 dollars or 23.',
      ],
    );
    assert.equal(records[1].text, 'hi my card number is four one one oh');
    assert.match(renderTranscript('text', call, meta).body, /^Caller: It is 1984\.$/m);
    assert.match(renderTranscript('srt', call, meta).body, /\nCaller: Hi my card number is 4110\.\n/);
    // the cue of "4110" spans the four words it came from
    const vtt = parseCues(renderTranscript('vtt', call, meta).body, 'vtt');
    const cue = vtt.find((c) => c.text.includes('4110'))!;
    const four = call.channels[1].words.findIndex((w) => w.word === 'four');
    assert.ok(cue.start <= call.channels[1].words[four].start && cue.end >= call.channels[1].words[four + 3].end);
  });

  test('long utterances are split into cues of at most 7 s and two lines of 42 characters', () => {
    const text = Array.from({ length: 60 }, (_, i) => ['please', 'read', 'me', 'the', 'long', 'terms', 'and', 'conditions'][i % 8]).join(' ');
    const words = text.split(' ').map((word, i) => ({ word, start: i * 0.35, end: i * 0.35 + 0.3, confidence: 0.9 }));
    const long: Transcript = { ...call, audioSeconds: 25, channels: [{ channel: 0, words, segments: [] }] };
    for (const kind of ['srt', 'vtt'] as const) {
      const cues = parseCues(renderTranscript(kind, long, {}).body, kind);
      assert.ok(cues.length >= 3);
      for (const cue of cues) assert.ok(cue.end - cue.start <= 7.001, `${cue.start}-${cue.end}`);
      assert.deepEqual(cues.flatMap((c) => c.text.split(' ')), text.split(' '));
      if (kind === 'vtt') assert.ok(!cues[0].text.startsWith('<v'), 'no voice on mono');
    }
  });

  test('timestamps past an hour, and VTT escaping', () => {
    const words = [
      { word: 'at&t', start: 3725.0004, end: 3725.9, confidence: 0.9 },
      { word: '<b>', start: 3726, end: 3726.5, confidence: 0.9 },
    ];
    const late: Transcript = { ...call, audioSeconds: 3800, channels: [{ channel: 0, words, segments: [] }] };
    assert.equal(renderTranscript('srt', late, {}).body, '1\n01:02:05,000 --> 01:02:06,500\nat&t <b>\n\n');
    assert.equal(renderTranscript('vtt', late, {}).body, 'WEBVTT\n\n1\n01:02:05.000 --> 01:02:06.500\nat&amp;t &lt;b&gt;\n\n');
  });

  test('renderTranscript: formats and content types', () => {
    assert.deepEqual([...TRANSCRIPT_FORMATS], ['vendorA', 'vendorB', 'transcript', 'utterances', 'text', 'srt', 'vtt']);
    assert.equal(isTranscriptFormat('srt'), true);
    assert.equal(isTranscriptFormat('pdf'), false);
    const types = Object.fromEntries(TRANSCRIPT_FORMATS.map((f) => [f, renderTranscript(f, call, META).contentType]));
    assert.deepEqual(types, {
      vendorA: 'application/json; charset=utf-8',
      vendorB: 'application/json; charset=utf-8',
      transcript: 'application/json; charset=utf-8',
      utterances: 'application/json; charset=utf-8',
      text: 'text/plain; charset=utf-8',
      srt: 'application/x-subrip; charset=utf-8',
      vtt: 'text/vtt; charset=utf-8',
    });
    assert.equal(typeof renderTranscript('vendorA', call, META).body, 'object');
    assert.ok(Array.isArray(renderTranscript('utterances', call, META).body));
    assert.equal(typeof renderTranscript('srt', call, META).body, 'string');
    assert.throws(() => renderTranscript('pdf' as 'srt', call, META), RangeError);
  });

  test('an empty transcript renders every shape', () => {
    const empty: Transcript = { ...call, channels: [{ channel: 0, words: [], segments: [] }, { channel: 1, words: [], segments: [] }] };
    const out = render(META, empty);
    assert.deepEqual(check('VendorATranscript', out.vendorA), []);
    assert.deepEqual(check('VendorBTranscript', out.vendorB), []);
    assert.deepEqual(check('TranscriptShape', out.shape), []);
    assert.deepEqual(out.records, []);
    assert.equal(out.text, '');
    assert.equal(out.srt, '');
    assert.equal(out.vtt, 'WEBVTT\n\n');
    assert.equal(out.vendorA.confidence, 0);
  });
});
