// The child process of probe.ts: load the model given as JSON in argv[2], decode a second of quiet noise,
// print {loadSeconds, memoryBytes, text} as one JSON line. Any failure ends the process non-zero.
import { loadSherpaOnnx } from './binding.js';
import { isOnlineFamily, type SherpaModelSpec } from './modelFolder.js';
import { onlineRecognizerConfig, recognizerConfig, SHERPA_SAMPLE_RATE } from './recognizerConfig.js';

const spec = JSON.parse(process.argv[2] ?? '{}') as SherpaModelSpec;
const { OfflineRecognizer, OnlineRecognizer } = loadSherpaOnnx();
const before = process.memoryUsage.rss();
const t0 = performance.now();
const online = isOnlineFamily(spec.family);
// A streaming model is loaded as the stream workers load it (the online recognizer), and decodes the noise in chunks.
const recognizer = online ? new OnlineRecognizer(onlineRecognizerConfig(spec)) : new OfflineRecognizer(recognizerConfig(spec));
const loadSeconds = (performance.now() - t0) / 1000;
const samples = new Float32Array(SHERPA_SAMPLE_RATE);
let seed = 1;
for (let i = 0; i < samples.length; i++) {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  samples[i] = (seed / 2147483648 - 0.5) * 0.002;
}
let text: string;
if (online) {
  const r = recognizer as InstanceType<typeof OnlineRecognizer>;
  const stream = r.createStream();
  stream.acceptWaveform({ samples, sampleRate: SHERPA_SAMPLE_RATE });
  stream.inputFinished();
  while (r.isReady(stream)) r.decode(stream);
  text = r.getResult(stream).text;
} else {
  const r = recognizer as InstanceType<typeof OfflineRecognizer>;
  const stream = r.createStream();
  stream.acceptWaveform({ samples, sampleRate: SHERPA_SAMPLE_RATE });
  r.decode(stream);
  text = r.getResult(stream).text;
}
process.stdout.write(`${JSON.stringify({ loadSeconds: Math.round(loadSeconds * 1000) / 1000, memoryBytes: Math.max(0, process.memoryUsage.rss() - before), text })}\n`);
