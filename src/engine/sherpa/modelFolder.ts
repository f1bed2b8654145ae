// A model folder as sherpa-onnx publishes it → which family it is and which file plays which part, or a
// ModelFolderError naming what is missing or unexpected. Families are told apart by file names (sherpa-onnx's
// own conventions: whisper `<size>-encoder.onnx`, transducer `encoder-*.onnx` + `joiner-*.onnx`, moonshine
// `preprocess.onnx`, ...) and, for single-file models, by the ONNX metadata the exporter wrote (model_type,
// lfr_window_size, ...). Where a folder holds both an int8 and a float file for a part, int8 is used (several
// times faster on CPU for a small loss; the manifest can name the other).
//
// Everything the native library would reject by exiting the process (a tokens file without a blank symbol, a
// file that is not an ONNX model) is checked here first.
import fs from 'node:fs';
import path from 'node:path';
import { readOnnxMetadata } from './onnxMetadata.js';

export const SHERPA_FAMILIES = [
  'whisper',
  'transducer',
  'nemo-ctc',
  'moonshine',
  'paraformer',
  'sense-voice',
  'online-transducer',
  'online-nemo-ctc',
  'online-zipformer2-ctc',
] as const;
export type SherpaFamily = (typeof SHERPA_FAMILIES)[number];

/**
 * Streaming (online) families: run by sherpa-onnx's OnlineRecognizer, chunk by chunk with their own endpointing;
 * the others decode whole stretches only (a live stream on one is decoded per utterance, sherpa/segmentStream.ts).
 */
export const ONLINE_FAMILIES: readonly SherpaFamily[] = ['online-transducer', 'online-nemo-ctc', 'online-zipformer2-ctc'];

export function isOnlineFamily(family: SherpaFamily): boolean {
  return ONLINE_FAMILIES.includes(family);
}

/** Metadata only streaming exports write: the chunk a streaming Zipformer decodes (icefall) ... */
const ZIPFORMER_CHUNK_KEYS = ['decode_chunk_len', 'T'];
/** ... and the cache a cache-aware streaming NeMo model carries (export with cache_support). */
const NEMO_CACHE_KEYS = ['window_size', 'chunk_shift', 'cache_last_channel_dim1', 'cache_last_time_dim1'];

export interface SherpaModelFiles {
  tokens: string;
  /** Single-file models (nemo-ctc, paraformer, sense-voice). */
  model?: string;
  encoder?: string;
  decoder?: string;
  joiner?: string;
  /** Moonshine. */
  preprocessor?: string;
  uncachedDecoder?: string;
  cachedDecoder?: string;
}

export interface SherpaModelSpec {
  family: SherpaFamily;
  /** Absolute paths. */
  files: SherpaModelFiles;
  /** transducer: 'nemo_transducer' for NeMo (Parakeet TDT) exports, '' otherwise (sherpa-onnx reads it). */
  modelType?: string;
  /** Whether the model gives token timestamps (else words are aligned with the bundled engine). */
  tokenTimestamps: boolean;
  /** Bytes on disk of the model files (what loading it costs, roughly). */
  bytes: number;
}

export class ModelFolderError extends Error {
  readonly permanent = true;
  constructor(
    readonly dir: string,
    readonly problems: string[],
  ) {
    super(`${dir} is not a usable sherpa-onnx model folder: ${problems.join('; ')}`);
    this.name = 'ModelFolderError';
  }
}

const BLANKS = ['<blk>', '<blank>', '<eps>'];

/** The one file among `names` matching `pattern`, int8 preferred; undefined when none. */
function pick(names: string[], pattern: RegExp, problems: string[], part: string): string | undefined {
  const found = names.filter((n) => pattern.test(n));
  if (found.length <= 1) return found[0];
  const int8 = found.filter((n) => /\.int8\.onnx$/.test(n));
  const float = found.filter((n) => !/\.int8\.onnx$/.test(n));
  if (int8.length === 1) return int8[0];
  if (int8.length === 0 && float.length === 1) return float[0];
  problems.push(`more than one ${part} file (${found.join(', ')}): keep one, or name it in scrubline-model.json`);
  return undefined;
}

function tokensProblems(file: string, needsBlank: boolean): string[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    return [`${path.basename(file)} cannot be read (${(error as Error).message})`];
  }
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) return [`${path.basename(file)} is empty`];
  // sherpa-onnx's symbol table: "<symbol> <id>" per line (whisper's tokens file: "<base64> <id>").
  const bad = lines.findIndex((l) => !/^\S*\s+\d+\s*$/.test(l) && !/^\s+\d+\s*$/.test(l));
  if (bad >= 0) return [`${path.basename(file)} line ${bad + 1} is not "<symbol> <id>": ${JSON.stringify(lines[bad].slice(0, 40))}`];
  if (needsBlank && !lines.some((l) => BLANKS.includes(l.trim().split(/\s+/)[0]))) {
    return [`${path.basename(file)} has no blank symbol (${BLANKS.join(', ')}) that a CTC model needs`];
  }
  return [];
}

/** Family and files of the model in `dir`; throws ModelFolderError listing every problem found. */
export function inspectModelFolder(dir: string): SherpaModelSpec {
  let names: string[];
  try {
    if (!fs.statSync(dir).isDirectory()) throw new ModelFolderError(dir, ['not a directory']);
    names = fs.readdirSync(dir).filter((n) => fs.statSync(path.join(dir, n)).isFile());
  } catch (error) {
    if (error instanceof ModelFolderError) throw error;
    throw new ModelFolderError(dir, [`cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`]);
  }
  const problems: string[] = [];
  const onnx = names.filter((n) => n.endsWith('.onnx'));
  if (onnx.length === 0) throw new ModelFolderError(dir, ['no .onnx file']);
  // Part names as sherpa-onnx exports them: `encoder-epoch-99-avg-1.int8.onnx`, `tiny.en-encoder.onnx`, `encoder.onnx`.
  const at = (name: string | undefined) => (name ? path.join(dir, name) : undefined);

  let family: SherpaFamily;
  const files: Partial<SherpaModelFiles> = {};
  let modelType: string | undefined;
  let tokenTimestamps = true;
  let tokens: string | undefined;

  if (names.includes('preprocess.onnx') || onnx.some((n) => /^uncached_decode/.test(n))) {
    family = 'moonshine';
    files.preprocessor = at(pick(names, /^preprocess(\.int8)?\.onnx$/, problems, 'preprocess'));
    files.encoder = at(pick(names, /^encode(\.int8)?\.onnx$/, problems, 'encode'));
    files.uncachedDecoder = at(pick(names, /^uncached_decode(\.int8)?\.onnx$/, problems, 'uncached_decode'));
    files.cachedDecoder = at(pick(names, /^cached_decode(\.int8)?\.onnx$/, problems, 'cached_decode'));
    for (const [part, file] of Object.entries({ preprocess: files.preprocessor, encode: files.encoder, uncached_decode: files.uncachedDecoder, cached_decode: files.cachedDecoder })) {
      if (!file && !problems.some((p) => p.includes(`${part} file`))) problems.push(`missing ${part}.onnx (or ${part}.int8.onnx)`);
    }
    tokens = pick(names, /tokens\.txt$/, problems, 'tokens');
    tokenTimestamps = false;
  } else if (onnx.some((n) => /(^|[-_.])joiner[-_.]/.test(n))) {
    family = 'transducer';
    files.encoder = at(pick(onnx, /(^|[-_.])encoder[-_.]/, problems, 'encoder'));
    files.decoder = at(pick(onnx, /(^|[-_.])decoder[-_.]/, problems, 'decoder'));
    files.joiner = at(pick(onnx, /(^|[-_.])joiner[-_.]/, problems, 'joiner'));
    if (!files.decoder && !problems.some((p) => p.includes('decoder'))) problems.push('missing the decoder (a file named decoder*.onnx)');
    tokens = pick(names, /^tokens\.txt$/, problems, 'tokens');
    if (files.encoder) {
      const meta = safeMeta(files.encoder, problems);
      // NeMo transducers (Parakeet TDT) carry their own metadata; sherpa-onnx needs to be told.
      if (meta && /nemo|EncDecRNNTBPEModel|EncDecHybridRNNTCTCBPEModel/i.test(`${meta.props.model_type ?? ''} ${meta.props.model_author ?? ''}`)) modelType = 'nemo_transducer';
      // A streaming Zipformer/Conformer encoder names its chunk: the online recognizer runs it.
      if (meta && ZIPFORMER_CHUNK_KEYS.some((k) => k in meta.props)) family = 'online-transducer';
      // Otherwise sherpa-onnx picks the transducer kind from the encoder's model_type (and exits without it).
      else if (meta && !meta.props.model_type) problems.push(`${path.basename(files.encoder)} has no model_type metadata (icefall exports write e.g. zipformer2)`);
    }
  } else if (onnx.some((n) => /(^|[-_.])encoder[-_.]/.test(n))) {
    family = 'whisper';
    files.encoder = at(pick(onnx, /(^|[-_.])encoder[-_.]/, problems, 'encoder'));
    files.decoder = at(pick(onnx, /(^|[-_.])decoder[-_.]/, problems, 'decoder'));
    if (!files.decoder && !problems.some((p) => p.includes('decoder'))) {
      problems.push('missing the decoder (a file named *-decoder.onnx); a transducer would also need a joiner');
    }
    tokens = pick(names, /tokens\.txt$/, problems, 'tokens');
    // sherpa-onnx returns no token times for Whisper.
    tokenTimestamps = false;
  } else {
    const model = pick(onnx, /^model(\.int8)?\.onnx$/, problems, 'model') ?? (onnx.length === 1 ? onnx[0] : undefined);
    if (!model) {
      if (!problems.length) problems.push(`cannot tell which model this is from its files (${onnx.join(', ')}): expected model.onnx, or encoder/decoder(/joiner) files`);
      throw new ModelFolderError(dir, problems);
    }
    files.model = at(model);
    const meta = safeMeta(files.model!, problems);
    const props = meta?.props ?? {};
    if (NEMO_CACHE_KEYS.some((k) => k in props)) family = 'online-nemo-ctc';
    else if (/zipformer/i.test(props.model_type ?? '') && ZIPFORMER_CHUNK_KEYS.some((k) => k in props)) family = 'online-zipformer2-ctc';
    else if (/^EncDec(CTCModel|CTCModelBPE|HybridRNNTCTCBPEModel)$/.test(props.model_type ?? '')) family = 'nemo-ctc';
    else if ('lfr_window_size' in props && ('with_itn' in props || 'lang_auto' in props || /sense/i.test(props.model_type ?? ''))) family = 'sense-voice';
    else if ('lfr_window_size' in props) family = 'paraformer';
    else {
      if (meta) {
        const keys = Object.keys(props);
        problems.push(
          `${model} has no metadata that names a supported single-file model (model_type EncDecCTCModelBPE for NeMo CTC, lfr_window_size for Paraformer/SenseVoice); found ${keys.length ? keys.join(', ') : 'no metadata'}`,
        );
      }
      throw new ModelFolderError(dir, problems);
    }
    if (family === 'nemo-ctc') {
      for (const key of ['vocab_size', 'subsampling_factor']) if (!(key in props)) problems.push(`${model} metadata lacks ${key}`);
    }
    // sherpa-onnx reads each of these and ends the process when one is missing.
    if (family === 'online-nemo-ctc') {
      const needed = ['vocab_size', 'subsampling_factor', ...NEMO_CACHE_KEYS, 'cache_last_channel_dim2', 'cache_last_channel_dim3', 'cache_last_time_dim2', 'cache_last_time_dim3'];
      for (const key of needed) if (!(key in props)) problems.push(`${model} metadata lacks ${key} (a streaming NeMo CTC model)`);
    }
    tokens = pick(names, /^tokens\.txt$/, problems, 'tokens');
  }

  if (!tokens) {
    if (!problems.some((p) => p.includes('tokens'))) problems.push('missing tokens.txt');
  } else {
    files.tokens = path.join(dir, tokens);
    problems.push(...tokensProblems(files.tokens, family === 'nemo-ctc' || family === 'online-nemo-ctc' || family === 'online-zipformer2-ctc'));
  }
  for (const file of Object.values(files)) if (file && file.endsWith('.onnx') && !files.model) safeMeta(file, problems);
  if (problems.length > 0) throw new ModelFolderError(dir, problems);
  const bytes = Object.values(files).reduce((sum, f) => sum + (f && f.endsWith('.onnx') ? fs.statSync(f).size : 0), 0);
  return { family, files: files as SherpaModelFiles, ...(modelType && { modelType }), tokenTimestamps, bytes };
}

function safeMeta(file: string, problems: string[]) {
  try {
    return readOnnxMetadata(file);
  } catch (error) {
    problems.push(`${path.basename(file)}: ${(error as Error).message.replace(`${file} `, '')}`);
    return undefined;
  }
}
