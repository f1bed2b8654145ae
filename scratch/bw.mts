import { execFileSync } from 'node:child_process';
import path from 'node:path';
import fs from 'node:fs';
import { decodeChannels } from '../src/audio/decode.js';
import { analyseShape } from '../src/engine/bandwidth.js';
const dev = '/work/shared/data/dev/audio';
const files = [path.join(dev, 'jfk.wav'), path.join(dev, 'stereo/stereo_diarization.wav'), ...fs.readdirSync(path.join(dev, 'ljspeech')).map((f) => path.join(dev, 'ljspeech', f))];
const ff = (a: string[]) => execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', ...a]);
for (const f of files) {
  const b = path.basename(f).replace(/\..*/, '');
  const variants: Record<string, string> = { orig: f };
  const bl = `/tmp/cs/${b}-bl.wav`; ff(['-i', f, '-af', 'highpass=f=300,lowpass=f=3400', '-ar', '8000', '-c:a', 'pcm_mulaw', bl]);
  const op = `/tmp/cs/${b}-bl48.opus`; ff(['-i', bl, '-ar', '48000', '-c:a', 'libopus', '-b:a', '24k', op]); variants.opus48 = op;
  for (const lvl of [60, 54, 44]) {
    const nz = `/tmp/cs/${b}-noise${lvl}.wav`;
    ff(['-i', bl, '-f', 'lavfi', '-i', 'anoisesrc=color=white:sample_rate=16000:amplitude=1', '-filter_complex', `[0:a]aresample=16000,aformat=channel_layouts=mono[s];[1:a]highpass=f=4000,highpass=f=4000,volume=-${lvl}dB[n];[s][n]amix=inputs=2:duration=first:normalize=0`, '-ar', '16000', nz]); variants[`n${lvl}`] = nz;
  }
  const nzo = `/tmp/cs/${b}-n54o.opus`; ff(['-i', `/tmp/cs/${b}-noise54.wav`, '-ar', '48000', '-c:a', 'libopus', '-b:a', '32k', nzo]); variants.n54opus = nzo;
  const line: string[] = [b.padEnd(18)];
  for (const [k, v] of Object.entries(variants)) {
    const a = await decodeChannels(v, { sampleRate: 16000 });
    const r = analyseShape(a.channels[0], 16000);
    line.push(`${k}: ${r.highBandRatio.toExponential(0)} c=${r.cliffDb.toFixed(0)} s=${r.slopeDb.toFixed(0)}`);
  }
  console.log(line.join(' | '));
}
