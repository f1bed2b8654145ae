// Spoken numbers for the defaults suite (issue 31) and eval/number-homophones.ts: short clips of card, SSN,
// account, CVV and expiry numbers read plain, in groups, with hesitations, with "oh", "double", by the project's two
// voices (espeak-ng, festival's US HTS voice), on an 8 kHz line with noise; and a leak measure that reads digits as
// the text may show them (numerals, digit words, and what the engine hears instead: "to", "for", "won", "ate", "oh").
import fs from 'node:fs';
import path from 'node:path';
import { ffmpeg, speak, speakFestival, stereo } from './audio.js';

export interface NumberClip {
  name: string;
  voice: 'espeak' | 'festival';
  /** What is said (mono), or the agent's and caller's turns (stereo: agent left, caller right). */
  text?: string;
  agent?: string;
  caller?: string;
  /** The seeded numbers' digits: no output may hold a run of more than 4 of any of them. */
  numbers: string[];
  /** Noise level (pink noise amplitude; speech peaks near 1). */
  noise: number;
}

export const NUMBER_CLIPS: readonly NumberClip[] = [
  // The call: festival, plain, heard "for 53 to 0151 line today 3036 to eight".
  { name: 'card-plain-festival', voice: 'festival', text: 'sure it is four five three two zero one five one one two eight three zero three six two eight', numbers: ['4532015112830362', '8'], noise: 0.015 },
  // Groups, hesitations, "oh" for zero; the cue said by the caller.
  { name: 'card-grouped-espeak', voice: 'espeak', text: 'my card number is four nine one six, uh, three eight oh two, let me see, seven seven one five, oh nine four two', numbers: ['4916380277150942'], noise: 0.01 },
  // SSN with "oh", in the 3-2-4 groups.
  { name: 'ssn-oh-festival', voice: 'festival', text: 'yes my social is five oh seven, two two, eight one oh four', numbers: ['507228104'], noise: 0.015 },
  // An account number with "double" and "triple", and many "two"s (heard "to").
  { name: 'account-double-espeak', voice: 'espeak', text: 'the account number is double four seven, triple two, eight one two nine six two', numbers: ['447222812962'], noise: 0.01 },
  // A stereo call: the agent asks for the card, then the CVV and expiry; the caller reads them with "two"s.
  {
    name: 'card-cvv-expiry-stereo-festival',
    voice: 'festival',
    agent: 'can I have the card number please. . . . . . . . . . . . . . and the security code and expiry date',
    caller: 'okay it is two two four one, two eight two two, one two four two, eight two two one. . . . . . . . three two eight, oh four twenty eight',
    numbers: ['2241282212428221', '328', '0428'],
    noise: 0.015,
  },
];

/** Ordinary talk with digit look-alikes in it ("for", "to", "one"): none of it is a number read out. */
export const ORDINARY_CLIP = {
  name: 'ordinary-festival',
  voice: 'festival' as const,
  text: 'I wanted to ask about my order, it was for my daughter and it came one week late, can you look into it for me',
};

function speakWith(voice: NumberClip['voice'], text: string, out: string): string {
  return voice === 'festival' ? speakFestival(text, out) : speak(text, out);
}

/** A clip at 8 kHz with pink noise mixed in (16-bit WAV), made once under `dir`. */
export function makeClip(dir: string, clip: { name: string; voice: NumberClip['voice']; text?: string; agent?: string; caller?: string; noise?: number }): string {
  const out = path.join(dir, `${clip.name}.wav`);
  if (fs.existsSync(out)) return out;
  // Noise is mixed into each party's speech (its own line), at 16 kHz; the call is then taken down to 8 kHz.
  const noisy = (text: string, name: string, delayMs = 0) => {
    const raw = speakWith(clip.voice, text, path.join(dir, `${name}.raw.wav`));
    const mixed = path.join(dir, `${name}.noisy.wav`);
    ffmpeg([
      '-i', raw,
      '-f', 'lavfi', '-i', `anoisesrc=color=pink:amplitude=${clip.noise ?? 0}:seed=31:sample_rate=16000`,
      '-filter_complex', `[0:a]adelay=${delayMs},apad=pad_dur=0.5[s];[s][1:a]amix=inputs=2:duration=first:normalize=0[a]`,
      '-map', '[a]', '-ac', '1', '-ar', '16000', mixed,
    ]);
    return mixed;
  };
  let wide: string;
  if (clip.agent !== undefined && clip.caller !== undefined) {
    // The caller answers after the agent's first question (about 2.5 s of it).
    wide = stereo(noisy(clip.agent, `${clip.name}.agent`), noisy(clip.caller, `${clip.name}.caller`, 2600), path.join(dir, `${clip.name}.wide.wav`));
  } else {
    wide = noisy(clip.text ?? '', clip.name);
  }
  ffmpeg(['-i', wide, '-ar', '8000', '-c:a', 'pcm_s16le', out]);
  return out;
}

const WORD_DIGITS: Record<string, string> = {
  zero: '0', oh: '0', o: '0', one: '1', won: '1', two: '2', to: '2', too: '2', three: '3', tree: '3', four: '4', for: '4', fore: '4',
  five: '5', six: '6', seven: '7', eight: '8', ate: '8', nine: '9', niner: '9', mine: '9',
};
const TEENS: Record<string, string> = { ten: '10', eleven: '11', twelve: '12', thirteen: '13', fourteen: '14', fifteen: '15', sixteen: '16', seventeen: '17', eighteen: '18', nineteen: '19' };
const TENS: Record<string, string> = { twenty: '2', thirty: '3', forty: '4', fifty: '5', sixty: '6', seventy: '7', eighty: '8', ninety: '9' };
/** Words a number read out may hold that break no run. */
const FILLERS = new Set(['uh', 'um', 'er', 'ah', 'and', 'dash']);

/**
 * The digit runs a text shows: consecutive numerals, digit words and look-alikes read as digits ("double four" is
 * "44", "twenty eight" "28", "to" "2"); any other word ends a run.
 */
export function digitRuns(text: string): string[] {
  const words = text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  const runs: string[] = [];
  let run = '';
  let repeat = 1;
  const close = () => {
    if (run) runs.push(run);
    run = '';
    repeat = 1;
  };
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    let digits: string | undefined;
    if (/^[0-9]+$/.test(w)) digits = w;
    else if (WORD_DIGITS[w]) digits = WORD_DIGITS[w];
    else if (TEENS[w]) digits = TEENS[w];
    else if (TENS[w]) digits = TENS[w] + (WORD_DIGITS[words[i + 1]] && words[i + 1] !== 'to' && words[i + 1] !== 'for' ? WORD_DIGITS[words[++i]] : '0');
    else if (w === 'double' || w === 'triple') {
      repeat = w === 'double' ? 2 : 3;
      continue;
    } else if (FILLERS.has(w)) continue;
    if (digits === undefined) {
      close();
      continue;
    }
    run += digits.repeat(repeat);
    repeat = 1;
  }
  close();
  return runs;
}

/** The longest stretch of `number`'s digits that `text` shows in one digit run (in order, contiguous). */
export function longestLeak(text: string, number: string): number {
  let best = 0;
  for (const run of digitRuns(text)) {
    // Longest common substring of the run and the number.
    for (let i = 0; i < run.length; i++)
      for (let j = 0; j < number.length; j++) {
        let k = 0;
        while (i + k < run.length && j + k < number.length && run[i + k] === number[j + k]) k++;
        if (k > best) best = k;
      }
  }
  return best;
}
