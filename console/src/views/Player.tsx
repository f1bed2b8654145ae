// The audio player: the job's (redacted) recording fetched with the key, drawn as a waveform (a lane per
// channel for stereo calls) with the redacted regions over it; `seekTo` moves it (clicking a word).
import { useEffect, useRef, useState } from 'preact/hooks';
import WaveSurfer from 'wavesurfer.js';
import RegionsPlugin from 'wavesurfer.js/dist/plugins/regions.esm.js';
import { call } from '../api';
import { seconds } from '../format';
import type { RedactedSpan } from '../transcript';

export interface PlayerHandle {
  seekTo(time: number): void;
}

const LANE_COLORS = ['#1f5f99', '#8a3b12'];

export function Player({
  src,
  channels,
  laneLabels,
  regions,
  handle,
  label,
}: {
  src: string;
  channels: number;
  /** What each lane is (Agent, Caller), top first. */
  laneLabels: string[];
  regions: RedactedSpan[];
  handle: { current?: PlayerHandle };
  label: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  const [error, setError] = useState<string>();
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const ws = useRef<WaveSurfer>();

  useEffect(() => {
    let cancelled = false;
    const regionsPlugin = RegionsPlugin.create();
    const wave = WaveSurfer.create({
      container: box.current!,
      height: channels > 1 ? 64 : 96,
      waveColor: LANE_COLORS[0],
      progressColor: '#0b2a45',
      cursorColor: '#000',
      normalize: true,
      plugins: [regionsPlugin],
      ...(channels > 1 && { splitChannels: Array.from({ length: channels }, (_, i) => ({ waveColor: LANE_COLORS[i % 2], progressColor: '#222' })) }),
    });
    ws.current = wave;
    wave.on('ready', (d) => {
      setDuration(d);
      for (const r of regions) {
        regionsPlugin.addRegion({
          start: r.start,
          end: Math.max(r.end, r.start + 0.05),
          color: 'rgba(200, 30, 30, 0.3)',
          drag: false,
          resize: false,
          ...(channels > 1 && { channelIdx: r.channel }),
          content: r.kind,
        });
      }
      setState('ready');
    });
    wave.on('timeupdate', (t) => setTime(t));
    wave.on('play', () => setPlaying(true));
    wave.on('pause', () => setPlaying(false));
    handle.current = { seekTo: (t) => wave.setTime(t) };
    call(src)
      .then((r) => r.blob())
      .then((blob) => (cancelled ? undefined : wave.loadBlob(blob)))
      .catch((e: Error) => {
        if (cancelled) return;
        setError(e.message);
        setState('error');
      });
    return () => {
      cancelled = true;
      wave.destroy();
    };
  }, [src, channels]);

  return (
    <section class="player" aria-labelledby="player-title" data-state={state} data-src={src}>
      <h2 id="player-title">{label}</h2>
      <div ref={box} class="wave" role="img" aria-label={`Waveform of the recording${channels > 1 ? `, ${channels} channels` : ''}, redacted regions shaded`} />
      <div class="controls">
        <button type="button" disabled={state !== 'ready'} onClick={() => ws.current?.playPause()}>
          {playing ? 'Pause' : 'Play'}
        </button>
        <span class="time">
          {seconds(time)} / {seconds(duration)}
        </span>
        {channels > 1 && <span class="lanes">Lanes: {laneLabels.map((l, i) => `${l} (${i === 0 ? 'top' : i === channels - 1 ? 'bottom' : `lane ${i + 1}`})`).join(', ')}</span>}
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
