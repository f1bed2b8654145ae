// Twilio Media Streams as a first-class call (api/routes/stream.ts, stream/twilio.ts): media.timestamp places each
// track (an agent track that starts late keeps its time in the after-call job, a skipped stretch stays a gap), the
// <Parameter>s carry what an upload can ask of its job (webhook, analytics, insights), the notification follows
// as for an upload, and a timestamp no call could have is refused. Positions in the recording are asserted, never
// wall-clock times.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import { encodeFile } from '../../examples/stream-client.js';
import { installedModels } from '../../src/engine/models.js';
import { durationOf, hasFestivalVoice, hasTool, speakFestival, tempDir } from '../helpers/audio.js';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';
import { until } from '../helpers/poll.js';
import { required } from '../helpers/require.js';

const skip = required(
  !hasTool('ffmpeg') || !hasFestivalVoice() ? "ffmpeg and festival's US voice are needed" : !installedModels().some((m) => m.name === 'en-us:wideband') ? 'the PocketSphinx model is not installed' : false,
);
const LATE = 2.5;
const FRAME = 160; // 20 ms of 8 kHz mu-law, as Twilio sends

interface Call {
  got: Record<string, any>[];
  closed: Promise<number>;
  socket: WebSocket;
}

async function twilioCall(url: string, customParameters: Record<string, string>): Promise<Call> {
  const socket = new WebSocket(`${url}/asr/stream/twilio`);
  const got: Record<string, any>[] = [];
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  socket.on('message', (data) => got.push(JSON.parse(data.toString())));
  await new Promise((r) => socket.on('open', r));
  socket.send(JSON.stringify({ event: 'connected', protocol: 'Call', version: '1.0.0' }));
  socket.send(JSON.stringify({ event: 'start', start: { streamSid: 'MZ7', callSid: 'CA7', tracks: ['inbound', 'outbound'], mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 }, customParameters } }));
  await until(() => got.some((m) => m.type === 'started' || m.type === 'error'), 'the Twilio stream to start');
  return { got, closed, socket };
}

/** Send a track's mu-law bytes as media messages from `fromSeconds` of the call, skipping `skip` (s, of the track). */
function sendTrack(socket: WebSocket, track: string, audio: Buffer, fromSeconds: number, skip?: [number, number]): void {
  for (let i = 0; i < audio.length; i += FRAME) {
    const at = i / 8000;
    if (skip && at >= skip[0] && at < skip[1]) continue;
    const timestamp = Math.round((fromSeconds + at) * 1000);
    socket.send(JSON.stringify({ event: 'media', media: { track, chunk: String(i / FRAME), timestamp: String(timestamp), payload: audio.subarray(i, i + FRAME).toString('base64') } }));
  }
}

const dialect = (await dialects()).at(-1)!;

describe(`Twilio calls (${dialect})`, { skip }, () => {
  let svc: TestService;
  let url: string;
  let dir: string;
  let hook: http.Server;
  let hookUrl: string;
  const delivered: any[] = [];
  let caller: Buffer;
  let agent: Buffer;
  let callerSeconds: number;

  before(async () => {
    svc = await startTestService(dialect, { env: { SCRUBLINE_WEBHOOK_ALLOW: '127.0.0.0/8' } });
    url = (await svc.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
    dir = tempDir('scrubline-twilio-');
    const callerFile = speakFestival('hello, i would like to ask about my last bill please, it seems too high to me.', path.join(dir, 'caller.wav'));
    const agentFile = speakFestival('thank you for calling, let me look at that for you.', path.join(dir, 'agent.wav'));
    callerSeconds = durationOf(callerFile);
    caller = encodeFile(callerFile, 'mulaw', 8000, 1).audio;
    agent = encodeFile(agentFile, 'mulaw', 8000, 1).audio;
    hook = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        delivered.push(JSON.parse(body));
        res.end('ok');
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
  });
  after(async () => {
    await svc?.close();
    hook?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a late agent track keeps its time; the parameters reach the after-call job; its notification follows', async () => {
    const call = await twilioCall(url, { webhook: hookUrl, analytics: 'true' });
    const started = call.got.find((m) => m.type === 'started');
    assert.ok(started, JSON.stringify(call.got));
    sendTrack(call.socket, 'inbound', caller, 0);
    sendTrack(call.socket, 'outbound', agent, LATE);
    call.socket.send(JSON.stringify({ event: 'stop', stop: { callSid: 'CA7' } }));
    assert.equal(await call.closed, 1000);
    const summary = call.got.find((m) => m.type === 'summary');
    assert.ok(summary?.jobId, JSON.stringify(summary));
    // The recording is as long as the later of the two tracks' ends, by their timestamps.
    const expected = Math.max(callerSeconds, LATE + agent.length / 8000);
    assert.ok(Math.abs(summary.audioSeconds - expected) < 0.05, `${summary.audioSeconds} s recorded, ${expected} s by the timestamps`);

    const job = json(await svc.request({ method: 'GET', url: `/asr/jobs/${summary.jobId}?wait=120` }));
    assert.equal(job.status, 'completed', job.message);
    const params = job.request ?? job.params ?? {};
    const record = JSON.stringify(job);
    assert.ok(record.includes(hookUrl) || JSON.stringify(params).includes('hook'), 'the job names its notification target');
    const transcript = json(await svc.request({ method: 'GET', url: `/asr/jobs/${summary.jobId}/transcript?format=transcript` }));
    // Every word on the agent's channel (0, the outbound track) starts after the track did.
    const words = wordsOf(transcript).filter((w) => w.channel === 0);
    assert.ok(words.length > 0, 'the agent was heard');
    assert.ok(words.every((w) => w.start >= LATE - 0.05), `agent words from ${Math.min(...words.map((w) => w.start))} s`);
    await until(() => delivered.some((d) => JSON.stringify(d).includes(summary.jobId)), 'the after-call notification');
    // The call is found by its callSid: its after-call job, and the stream that kept its finals.
    const byCall = json(await svc.request({ method: 'GET', url: '/asr/jobs?callSid=CA7' }));
    assert.deepEqual(byCall.jobs.map((j: any) => j.jobId ?? j.id), [summary.jobId]);
    assert.equal(json(await svc.request({ method: 'GET', url: '/asr/jobs?callSid=CA8' })).total, 0);
    const streams = json(await svc.request({ method: 'GET', url: '/asr/streams?callSid=CA7' }));
    assert.deepEqual(streams.streams.map((x: any) => [x.streamId, x.messages]), [[summary.streamId, summary.finals]]);
    const kept = json(await svc.request({ method: 'GET', url: `/asr/stream/${streams.streams[0].streamId}/messages` }));
    assert.equal(kept.messages.length, summary.finals);
    // analytics=true reached the job: its record carries the call's analytics.
    assert.ok(record.includes('"analytics"'), 'the job ran call analytics');
  });

  test('insights without a project are refused at the start, not after the call', async () => {
    const call = await twilioCall(url, { insights: '*' });
    assert.equal(await call.closed, 1008);
    const error = call.got.find((m) => m.type === 'error');
    assert.equal(error?.status, 400, JSON.stringify(call.got));
    assert.match(error.detail, /sid/);
  });

  test('a timestamp no call could have is refused with a reason', async () => {
    const call = await twilioCall(url, { job: 'false' });
    call.socket.send(JSON.stringify({ event: 'media', media: { track: 'inbound', timestamp: String(10 ** 9), payload: caller.subarray(0, FRAME).toString('base64') } }));
    assert.equal(await call.closed, 1000);
    const error = call.got.find((m) => m.type === 'error');
    assert.equal(error?.status, 400);
    assert.match(error.detail, /media\.timestamp/);
  });

  test('a webhook the address policy refuses is refused at the start, not after the call', async () => {
    const call = await twilioCall(url, { webhook: 'http://169.254.169.254/latest' });
    assert.equal(await call.closed, 1008);
    const error = call.got.find((m) => m.type === 'error');
    assert.equal(error?.status, 400, JSON.stringify(call.got));
  });
});

/** Words with their channel (0-based) and start, from the json-v2 transcript shape. */
function wordsOf(transcript: any): { channel: number; start: number }[] {
  return (transcript.results ?? [])
    .filter((r: any) => r.type === 'word')
    .map((r: any) => ({ channel: Number(String(r.channel).replace('channel_', '')) - 1, start: r.start_time }));
}
