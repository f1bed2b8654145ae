// Keypad entries of a decoded recording: where a caller typed on the keypad (DTMF tones), per channel, as times
// only. CPU work over a whole recording: jobs run it on a worker (workers/index.ts keypadEntriesOffLoop).
import { detectDtmf } from './dtmf.js';
import type { AudioSpan, RedactionPcm } from './redactAudio.js';

/** Keypad tones of one channel closer than this (s) are one keypad entry (one span). */
const KEYPAD_ENTRY_GAP = 1;
/** The lowest sample rate the keypad-tone detector works at (Hz). */
const MIN_DTMF_RATE = 4000;
/**
 * Keypad entries per channel: DTMF tones found on the decoded recording, grouped when closer than
 * KEYPAD_ENTRY_GAP. Only times leave this function: the keys pressed are dropped here.
 */
export function keypadEntries(pcm: Pick<RedactionPcm, 'samples' | 'sampleRate' | 'channels'>): AudioSpan[] {
  const entries: AudioSpan[] = [];
  // Below 4 kHz the upper keypad tones (up to 1633 Hz) cannot be told apart: such a recording holds no keys.
  if (pcm.sampleRate < MIN_DTMF_RATE) return entries;
  for (let channel = 0; channel < pcm.channels; channel++) {
    let open: AudioSpan | undefined;
    for (const tone of detectDtmf(pcm.samples, pcm.sampleRate, { stride: pcm.channels, offset: channel })) {
      if (open && tone.start - open.end < KEYPAD_ENTRY_GAP) open.end = Math.max(open.end, tone.end);
      else entries.push((open = { channel, start: tone.start, end: tone.end }));
    }
  }
  return entries.sort((a, b) => a.start - b.start || a.channel - b.channel);
}
