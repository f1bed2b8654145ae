// Models the sherpa-onnx engine can pull by name (`scrubline models pull en-us:whisper-tiny`). Upstream
// (k2-fsa/sherpa-onnx) publishes them as .tar.bz2 assets on its rolling `asr-models` release tag and
// publishes no checksum file, and an asset on a rolling tag can be replaced under the same name. So:
//   - `sha256` is pinned only where independent public projects that verify the archive at download time
//     record the same digest (the provenance is in `sha256Source`); a pinned pull refuses other bytes;
//   - where no digest was found, `sha256` is undefined: a pull then computes and records the digest
//     ("trust on first use") and the CLI requires an explicit flag to accept it. Never guess one.
// Sizes are the archive's byte count where a pinning project recorded it, else an approximation.

export type ModelFamily = 'whisper' | 'transducer' | 'nemo-ctc' | 'moonshine' | 'paraformer' | 'sense-voice';

/** A published accuracy figure, always with where it was published. */
export interface AccuracyNote {
  /** e.g. 'LibriSpeech test-clean'. */
  dataset: string;
  /** Word error rate in percent, as published (not measured by Scrubline). */
  werPercent: number;
  source: string;
}

export interface CatalogueEntry {
  /** `language:name`, the service's naming convention. */
  name: string;
  family: ModelFamily;
  /** Upstream download URL (GitHub release asset; answers with a redirect). */
  url: string;
  /** Archive file name: what a mirror must serve under its base URL. */
  archive: string;
  /** Download size in bytes (exact where `sizeExact`, else approximate). */
  sizeBytes: number;
  sizeExact: boolean;
  /** sha256 of the archive, lower-case hex; undefined where no published digest was found. */
  sha256?: string;
  /** Where the pinned digest was read (or why there is none). */
  sha256Source: string;
  licence: string;
  description: string;
  accuracy: AccuracyNote[];
  /** Published speed or size notes, in words. */
  notes?: string;
}

const RELEASE = 'https://github.com/k2-fsa/sherpa-onnx/releases/download/asr-models';

function asset(archive: string): { url: string; archive: string } {
  return { url: `${RELEASE}/${archive}`, archive };
}

const THIRD_PARTY =
  'not published by upstream; the same digest is pinned (and checked at download) by several independent public projects';

export const CATALOGUE: readonly CatalogueEntry[] = [
  {
    name: 'en-us:whisper-tiny',
    family: 'whisper',
    ...asset('sherpa-onnx-whisper-tiny.en.tar.bz2'),
    sizeBytes: 118_071_777,
    sizeExact: true,
    sha256: '2bd6cf965c8bb3e068ef9fa2191387ee63a9dfa2a4e37582a8109641c20005dd',
    sha256Source: `${THIRD_PARTY} (five or more, 2026)`,
    licence: 'MIT (OpenAI Whisper)',
    description: 'OpenAI Whisper tiny.en (39M parameters) exported to ONNX by sherpa-onnx; fp32 and int8 files.',
    accuracy: [],
    notes: 'Smallest Whisper; OpenAI lists it as about 32x the speed of large.',
  },
  {
    name: 'en-us:whisper-base',
    family: 'whisper',
    ...asset('sherpa-onnx-whisper-base.en.tar.bz2'),
    sizeBytes: 208_576_005,
    sizeExact: true,
    sha256: '475bc7052ce299c007f6d5d5407ba8601f819a2867f6eecee510ed17df581542',
    sha256Source: `${THIRD_PARTY} (five or more, 2026)`,
    licence: 'MIT (OpenAI Whisper)',
    description: 'OpenAI Whisper base.en (74M parameters) exported to ONNX by sherpa-onnx; fp32 and int8 files.',
    accuracy: [],
    notes: 'OpenAI lists base as about 16x the speed of large.',
  },
  {
    name: 'en-us:whisper-small',
    family: 'whisper',
    ...asset('sherpa-onnx-whisper-small.en.tar.bz2'),
    sizeBytes: 635_693_775,
    sizeExact: true,
    sha256: '0cdba2b8aaab69e04847f3427cc9709574112e67913a1a84b7fec3a8729faa9a',
    sha256Source: `${THIRD_PARTY} (five or more, 2026)`,
    licence: 'MIT (OpenAI Whisper)',
    description: 'OpenAI Whisper small.en (244M parameters) exported to ONNX by sherpa-onnx; fp32 and int8 files.',
    accuracy: [],
    notes: 'OpenAI lists small as about 6x the speed of large.',
  },
  {
    name: 'en-us:moonshine-tiny',
    family: 'moonshine',
    ...asset('sherpa-onnx-moonshine-tiny-en-int8.tar.bz2'),
    sizeBytes: 107_600_538,
    sizeExact: true,
    sha256: 'd5fe6ec4334fef36255b2a4010412cad4c007e33103fec62fb5d17cad88086f2',
    sha256Source: `${THIRD_PARTY} (three, 2026)`,
    licence: 'MIT (Useful Sensors; the archive ships its LICENSE)',
    description: 'Moonshine tiny (27M parameters), English, int8; cost scales with audio length (no 30 s padding).',
    accuracy: [],
    notes: 'Moonshine paper (arXiv 2410.15608): 5x less compute than Whisper tiny.en on a 10 s segment with no increase in WER.',
  },
  {
    name: 'en-us:moonshine-base',
    family: 'moonshine',
    ...asset('sherpa-onnx-moonshine-base-en-int8.tar.bz2'),
    sizeBytes: 250_807_309,
    sizeExact: true,
    sha256: '21870cecaa2e44e4e2bf63e02d1072bed183ccd10284871353bd9d24dad14e5e',
    sha256Source: `${THIRD_PARTY} (two, 2026)`,
    licence: 'MIT (Useful Sensors)',
    description: 'Moonshine base (61M parameters), English, int8.',
    accuracy: [],
  },
  {
    name: 'en-us:parakeet-tdt-0.6b-v2',
    family: 'transducer',
    ...asset('sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8.tar.bz2'),
    sizeBytes: 482_468_385,
    sizeExact: true,
    sha256: '157c157bc51155e03e37d2466522a3a737dd9c72bb25f36eb18912964161e1ad',
    sha256Source: `${THIRD_PARTY} (six or more, 2026)`,
    licence: 'CC-BY-4.0 (NVIDIA; attribution required)',
    description: 'NVIDIA Parakeet TDT 0.6B v2 (NeMo transducer), English, int8; punctuation and capitalisation.',
    accuracy: [
      { dataset: 'LibriSpeech test-clean', werPercent: 1.69, source: 'huggingface.co/nvidia/parakeet-tdt-0.6b-v2 model card' },
      { dataset: 'LibriSpeech test-other', werPercent: 3.19, source: 'huggingface.co/nvidia/parakeet-tdt-0.6b-v2 model card' },
      { dataset: 'HF Open ASR Leaderboard, mean of 8 sets', werPercent: 6.05, source: 'huggingface.co/nvidia/parakeet-tdt-0.6b-v2 model card' },
    ],
    notes: 'Most accurate entry here and the largest to run; needs the sherpa-onnx nemo_transducer model type.',
  },
  {
    name: 'en-us:parakeet-tdt-ctc-110m',
    family: 'nemo-ctc',
    ...asset('sherpa-onnx-nemo-parakeet_tdt_ctc_110m-en-36000-int8.tar.bz2'),
    sizeBytes: 104_337_827,
    sizeExact: true,
    sha256: '17f945007b52ccd8b7200ffc7c5652e9e8e961dfdf479cefcabd06cf5703630b',
    sha256Source: `${THIRD_PARTY} (six or more, 2026)`,
    licence: 'CC-BY-4.0 (NVIDIA; attribution required)',
    description: 'NVIDIA Parakeet TDT-CTC 110M, CTC head, English, int8 (model.int8.onnx + tokens.txt).',
    accuracy: [],
  },
  {
    name: 'en-us:nemo-ctc-conformer-small',
    family: 'nemo-ctc',
    ...asset('sherpa-onnx-nemo-ctc-en-conformer-small.tar.bz2'),
    sizeBytes: 76_482_338,
    sizeExact: true,
    sha256: '83dcb462aece5bef4e8072c267419389f0b8d1f91152d8851765f284ff664caa',
    sha256Source: `${THIRD_PARTY} (four or more, 2026)`,
    licence: 'CC-BY-4.0 (NVIDIA NeMo stt_en_conformer_ctc_small)',
    description: 'NVIDIA NeMo Conformer-CTC small, English; the smallest download here.',
    accuracy: [
      { dataset: 'LibriSpeech test-clean', werPercent: 3.7, source: 'huggingface.co/nvidia/stt_en_conformer_ctc_small model card (model-index)' },
      { dataset: 'LibriSpeech test-other', werPercent: 8.1, source: 'huggingface.co/nvidia/stt_en_conformer_ctc_small model card (model-index)' },
    ],
  },
  {
    name: 'en-us:zipformer-gigaspeech',
    family: 'transducer',
    ...asset('sherpa-onnx-zipformer-gigaspeech-2023-12-12.tar.bz2'),
    sizeBytes: 310_000_000,
    sizeExact: false,
    sha256: undefined,
    sha256Source: 'no published digest found: a pull records the computed digest (trust on first use)',
    licence: 'Apache-2.0 (k2-fsa/icefall; no separate model licence found)',
    description: 'icefall Zipformer transducer trained on GigaSpeech (podcasts, YouTube), English; fp32 and int8 files.',
    accuracy: [],
    notes: 'Offline (non-streaming) transducer from k2-fsa.github.io/sherpa/onnx offline-transducer docs.',
  },
];

/** The catalogue entry with this exact name, or undefined. */
export function findCatalogueEntry(name: string, catalogue: readonly CatalogueEntry[] = CATALOGUE): CatalogueEntry | undefined {
  return catalogue.find((entry) => entry.name === name);
}
