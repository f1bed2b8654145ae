// How much window finding a piece of work gets (issue 31: the defaults never do less). Whenever a number kind is
// redacted, the number-speech layers run with no opt-in: number runs and number-dense turns (digit look-alikes
// such as "to", "for", "won", "ate", "oh" counted beside real digits), stray digit words heard unsure, and the cue
// requests and lead-ins of the payment and identity kinds ("can I have the card number"). The cue rules of the
// other kinds (a name, an address, an e-mail: a window redacts the whole answer) stay opt-in
// (`cueWindows.enabled: true`, or a job's `cueWindows: true`). Only an admin turns the default layers off (a
// project's `cueWindows.enabled: false`, or an admin key's `cueWindows: false` on a job), and it is recorded.
// Measured over-redaction of each level: eval/default-windows.ts (docs/_incoming/defaults.md).
import type { CueWindowsConfig } from '../../schema/resources/projectConfig.js';
import type { EntityKind } from '../entityKinds.js';
import { resolveWindowOptions, type WindowOptions } from './windowOptions.js';

/** full: every cue rule of the kinds asked; default: see above; off: no cue or number windows (an admin's choice). */
export type WindowLevel = 'full' | 'default' | 'off';

/** Kinds whose values are read out as digits: redacting any of them runs the number-speech layers. */
export const NUMBER_KINDS: ReadonlySet<EntityKind> = new Set<EntityKind>([
  'CreditCardNumber',
  'CVV',
  'ExpirationDate',
  'USSocialSecurityNumber',
  'USBankAccountNumber',
  'ABARoutingNumber',
  'IBAN',
  'PhoneNumber',
  'DateOfBirth',
  'USDriversLicenseNumber',
  'USPassportNumber',
  'ZipCode',
]);

/**
 * Kinds whose cue phrases and hint words open windows by default: payment and verification values, whose
 * request is rarely said in ordinary talk ("the security code", "your social"). Measured on ordinary speech
 * (eval/default-windows.ts); phone, date of birth, zip and ID cues stay opt-in.
 */
export const DEFAULT_CUE_KINDS: ReadonlySet<EntityKind> = new Set<EntityKind>([
  'CreditCardNumber',
  'CVV',
  'ExpirationDate',
  'USSocialSecurityNumber',
  'USBankAccountNumber',
  'ABARoutingNumber',
]);

/**
 * Requests of DEFAULT_CUE_KINDS left to the full level: one common word, said as often by the party giving the
 * value ("expiration oh nine twenty seven") as by the one asking, so its window fell on the wrong party's next turn
 * (eval/default-windows.ts). The word still counts as a hint (a number run after it takes its kind).
 */
const OPT_IN_REQUESTS: ReadonlySet<string> = new Set(['expiration', 'the expiry', 'routing']);

/** What decides the level: the project's `cueWindows.enabled` and what the job's policy recorded at submit. */
export function windowLevel(project: CueWindowsConfig | undefined, recorded: WindowLevel | undefined): WindowLevel {
  if (project?.enabled === true || recorded === 'full') return 'full';
  // A project's `enabled: false` is published by an admin key (and recorded as an event at publish).
  if (project?.enabled === false || recorded === 'off') return 'off';
  return 'default';
}

export interface WindowPlan {
  /** The kinds windows are made for. */
  kinds: string[];
  options: WindowOptions;
}

function only<T>(list: Partial<Record<EntityKind, T>>, keep: ReadonlySet<EntityKind>): Partial<Record<EntityKind, T>> {
  return Object.fromEntries(Object.entries(list).filter(([kind]) => keep.has(kind as EntityKind))) as Partial<Record<EntityKind, T>>;
}

/** The default level's options: the project's bounds and added phrases, cue phrases and hint words of DEFAULT_CUE_KINDS only. */
export function defaultLevelOptions(project?: CueWindowsConfig): WindowOptions {
  const full = resolveWindowOptions({ ...project, enabled: true });
  return {
    ...full,
    requests: Object.fromEntries(
      Object.entries(only(full.requests, DEFAULT_CUE_KINDS)).map(([kind, phrases]) => [kind, (phrases ?? []).filter((p) => !OPT_IN_REQUESTS.has(p))]),
    ),
    leadIns: only(full.leadIns, DEFAULT_CUE_KINDS),
    hintWords: only(full.hintWords, DEFAULT_CUE_KINDS),
  };
}

// The options without a project are the same for every job: resolved once (cue phrases are prepared per options object).
let sharedDefault: WindowOptions | undefined;
let sharedFull: WindowOptions | undefined;
let sharedDefaultText: WindowOptions | undefined;

/** The model name of a text job's transcript (jobs/textTranscript.ts): words given, not recognized. */
export const TEXT_INPUT_MODEL = 'text:input';

/**
 * What window finding runs with at `level` for the kinds a policy redacts; undefined when it does not run. At the
 * default level, words given as text (`givenText`) keep the rest of a number's turn: they were not misheard, so a
 * number run masks itself (padded), not "hello, my social is ..., thanks" whole (eval/default-windows.ts).
 */
export function windowPlan(level: WindowLevel, kinds: readonly string[], project?: CueWindowsConfig, givenText = false): WindowPlan | undefined {
  if (level === 'off' || kinds.length === 0) return undefined;
  const hasProjectOptions = project !== undefined && Object.keys(project).some((k) => k !== 'enabled');
  if (level === 'full') {
    const options = hasProjectOptions ? resolveWindowOptions({ ...project, enabled: true }) : (sharedFull ??= resolveWindowOptions({ enabled: true }));
    return { kinds: [...kinds], options };
  }
  const numberKinds = kinds.filter((k) => NUMBER_KINDS.has(k as EntityKind));
  if (numberKinds.length === 0) return undefined;
  const shared = hasProjectOptions ? defaultLevelOptions(project) : (sharedDefault ??= defaultLevelOptions());
  // Given words' times are positions, not estimates of speech: no padding either.
  const textOptions = () => ({ ...shared, wholeTurns: false, padSeconds: 0 });
  const options = givenText ? (hasProjectOptions ? textOptions() : (sharedDefaultText ??= textOptions())) : shared;
  return { kinds: numberKinds, options };
}
