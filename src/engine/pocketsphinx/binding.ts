// FFI over Debian's PocketSphinx (libpocketsphinx.so.3, 5prealpha) and SphinxBase (libsphinxbase.so.3) through
// koffi: no compilation, the C library is called directly. Only what the decoder needs is bound.
//
// Signatures follow pocketsphinx.h of 5prealpha. Two functions changed between releases: `ps_get_hyp` and
// `ps_seg_iter` once had an `int32 *out_best_score` parameter that later builds dropped; they are declared with
// it here, which is harmless on builds without it (an unused trailing argument in a register).
//
// The library is loaded lazily, once per thread (each worker thread loads its own koffi instance; dlopen shares
// the mapping), so importing this module never fails on a machine without the library: `loadPocketSphinx()`
// throws a `PocketSphinxUnavailable` error naming what is missing.
import koffi from 'koffi';

export class PocketSphinxUnavailable extends Error {
  /** Retrying cannot help (the job worker fails the job at once). */
  readonly permanent = true;
  constructor(message: string) {
    super(message);
    this.name = 'PocketSphinxUnavailable';
  }
}

/** Opaque handles (koffi external pointers). */
export type Pointer = unknown;

export interface PocketSphinxLib {
  /** Parse `-name value` pairs into a configuration against the decoder's argument definitions. */
  parseConfig(args: string[]): Pointer;
  freeConfig(config: Pointer): void;
  init(config: Pointer): Pointer;
  free(ps: Pointer): void;
  /** A new stream on a kept decoder: the front end's noise statistics and sample count back to a fresh decoder's. */
  startStream(ps: Pointer): number;
  startUtt(ps: Pointer): number;
  processRaw(ps: Pointer, samples: Int16Array, noSearch: boolean, fullUtt: boolean): number;
  endUtt(ps: Pointer): number;
  getHyp(ps: Pointer): string | null;
  segIter(ps: Pointer): Pointer | null;
  segNext(seg: Pointer): Pointer | null;
  segFree(seg: Pointer): void;
  segWord(seg: Pointer): string;
  /** First and last frame (inclusive; frames are `1 / frate` s, 10 ms by default). */
  segFrames(seg: Pointer): [number, number];
  /** Posterior log probability (in the decoder's log base) of the segment. */
  segProb(seg: Pointer): number;
  getLogmath(ps: Pointer): Pointer;
  logmathExp(logmath: Pointer, logp: number): number;
}

const DEFAULT_PS_LIB = 'libpocketsphinx.so.3';
const DEFAULT_SB_LIB = 'libsphinxbase.so.3';

let cached: PocketSphinxLib | undefined;
let failure: PocketSphinxUnavailable | undefined;

/** Loads the libraries (once per thread) or throws `PocketSphinxUnavailable`. */
export function loadPocketSphinx(): PocketSphinxLib {
  if (cached) return cached;
  if (failure) throw failure;
  const psPath = process.env.SCRUBLINE_POCKETSPHINX_LIB || DEFAULT_PS_LIB;
  const sbPath = process.env.SCRUBLINE_SPHINXBASE_LIB || DEFAULT_SB_LIB;
  let ps: koffi.IKoffiLib;
  let sb: koffi.IKoffiLib;
  try {
    sb = koffi.load(sbPath);
    ps = koffi.load(psPath);
  } catch (err) {
    failure = new PocketSphinxUnavailable(
      `PocketSphinx libraries could not be loaded (${sbPath}, ${psPath}): install the Debian packages ` +
        `libpocketsphinx3 and libsphinxbase3 (${(err as Error).message})`,
    );
    throw failure;
  }

  // Unique type names per thread are not needed: koffi types are per module instance.
  const cmd_ln_parse_r = sb.func('void *cmd_ln_parse_r(void *inout, void *defn, int argc, const char **argv, int strict)');
  const cmd_ln_free_r = sb.func('int cmd_ln_free_r(void *cmdln)');
  const err_set_logfp = sb.func('void err_set_logfp(void *stream)');
  const logmath_exp = sb.func('double logmath_exp(void *lmath, int logb_p)');

  const ps_args = ps.func('void *ps_args()');
  const ps_init = ps.func('void *ps_init(void *config)');
  const ps_free = ps.func('int ps_free(void *ps)');
  const ps_start_stream = ps.func('int ps_start_stream(void *ps)');
  const ps_start_utt = ps.func('int ps_start_utt(void *ps)');
  const ps_process_raw = ps.func('int ps_process_raw(void *ps, const int16_t *data, size_t n_samples, int no_search, int full_utt)');
  const ps_end_utt = ps.func('int ps_end_utt(void *ps)');
  const ps_get_hyp = ps.func('const char *ps_get_hyp(void *ps, _Out_ int32_t *out_best_score)');
  const ps_get_logmath = ps.func('void *ps_get_logmath(void *ps)');
  const ps_seg_iter = ps.func('void *ps_seg_iter(void *ps, _Out_ int32_t *out_best_score)');
  const ps_seg_next = ps.func('void *ps_seg_next(void *seg)');
  const ps_seg_free = ps.func('void ps_seg_free(void *seg)');
  const ps_seg_word = ps.func('const char *ps_seg_word(void *seg)');
  const ps_seg_frames = ps.func('void ps_seg_frames(void *seg, _Out_ int *out_sf, _Out_ int *out_ef)');
  const ps_seg_prob = ps.func('int32_t ps_seg_prob(void *seg, _Out_ int32_t *out_ascr, _Out_ int32_t *out_lscr, _Out_ int32_t *out_lback)');

  // Silence the library's log (it writes every setting and every utterance's search statistics to stderr).
  err_set_logfp(null);

  const argDefs = ps_args();
  cached = {
    parseConfig(args) {
      const config = cmd_ln_parse_r(null, argDefs, args.length, args, 1);
      if (!config) throw new Error(`PocketSphinx refused its configuration: ${args.join(' ')}`);
      return config;
    },
    freeConfig: (config) => void cmd_ln_free_r(config),
    init(config) {
      const decoder = ps_init(config);
      if (!decoder) throw new Error('PocketSphinx could not create a decoder (model files missing or unreadable?)');
      return decoder;
    },
    free: (decoder) => void ps_free(decoder),
    startStream: (decoder) => ps_start_stream(decoder),
    startUtt: (decoder) => ps_start_utt(decoder),
    processRaw: (decoder, samples, noSearch, fullUtt) =>
      ps_process_raw(decoder, samples, samples.length, noSearch ? 1 : 0, fullUtt ? 1 : 0),
    endUtt: (decoder) => ps_end_utt(decoder),
    getHyp: (decoder) => ps_get_hyp(decoder, [0]) as string | null,
    segIter: (decoder) => ps_seg_iter(decoder, [0]) || null,
    segNext: (seg) => ps_seg_next(seg) || null,
    segFree: (seg) => void ps_seg_free(seg),
    segWord: (seg) => ps_seg_word(seg) as string,
    segFrames(seg) {
      const sf = [0];
      const ef = [0];
      ps_seg_frames(seg, sf, ef);
      return [sf[0], ef[0]];
    },
    segProb: (seg) => ps_seg_prob(seg, [0], [0], [0]) as number,
    getLogmath: (decoder) => ps_get_logmath(decoder),
    logmathExp: (logmath, logp) => logmath_exp(logmath, logp) as number,
  };
  return cached;
}
