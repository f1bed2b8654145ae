// A model folder's spec → the configuration sherpa-onnx's offline recognizer takes. One thread per recognizer:
// the decoder pool spreads work over the cores, one decode per worker.
import type { OfflineRecognizerConfig, OnlineRecognizerConfig } from './binding.js';
import { isOnlineFamily, type SherpaModelSpec } from './modelFolder.js';

/** Every family here takes 16 kHz audio (sherpa-onnx resamples anything else itself, but we decode at this rate). */
export const SHERPA_SAMPLE_RATE = 16000;

export function recognizerConfig(spec: SherpaModelSpec, numThreads = 1): OfflineRecognizerConfig {
  const f = spec.files;
  const modelConfig: OfflineRecognizerConfig['modelConfig'] = { tokens: f.tokens, numThreads, provider: 'cpu', debug: 0 };
  // The offline recognizer would end the process on a streaming model's files (it reads other metadata).
  if (isOnlineFamily(spec.family)) throw Object.assign(new Error(`a ${spec.family} model runs in sherpa-onnx's online recognizer`), { permanent: true });
  switch (spec.family) {
    case 'whisper':
      // language '' lets multilingual models detect it; English-only (.en) models require ''.
      modelConfig.whisper = { encoder: f.encoder, decoder: f.decoder, language: '', task: 'transcribe', tailPaddings: -1 };
      break;
    case 'transducer':
      modelConfig.transducer = { encoder: f.encoder, decoder: f.decoder, joiner: f.joiner };
      if (spec.modelType) modelConfig.modelType = spec.modelType;
      break;
    case 'nemo-ctc':
      modelConfig.nemoCtc = { model: f.model };
      break;
    case 'moonshine':
      modelConfig.moonshine = { preprocessor: f.preprocessor, encoder: f.encoder, uncachedDecoder: f.uncachedDecoder, cachedDecoder: f.cachedDecoder };
      break;
    case 'paraformer':
      modelConfig.paraformer = { model: f.model };
      break;
    case 'sense-voice':
      modelConfig.senseVoice = { model: f.model, language: 'auto', useInverseTextNormalization: 1 };
      break;
  }
  return { featConfig: { sampleRate: SHERPA_SAMPLE_RATE, featureDim: 80 }, modelConfig, decodingMethod: 'greedy_search' };
}

/** When the online recognizer ends an utterance (its endpoint rules, seconds); undefined: never (batch decoding). */
export interface OnlineEndpoint {
  /** Trailing silence that ends an utterance in which nothing was recognized yet. */
  silenceBeforeWords: number;
  /** Trailing silence that ends an utterance after words (the engine's uttmaxsilence). */
  silenceAfterWords: number;
  /** Longest utterance (the engine's uttmaxtime). */
  maxUtterance: number;
}

export function onlineRecognizerConfig(spec: SherpaModelSpec, endpoint?: OnlineEndpoint, numThreads = 1): OnlineRecognizerConfig {
  const f = spec.files;
  const modelConfig: OnlineRecognizerConfig['modelConfig'] = { tokens: f.tokens, numThreads, provider: 'cpu', debug: 0 };
  switch (spec.family) {
    case 'online-transducer':
      modelConfig.transducer = { encoder: f.encoder, decoder: f.decoder, joiner: f.joiner };
      break;
    case 'online-nemo-ctc':
      modelConfig.nemoCtc = { model: f.model };
      break;
    case 'online-zipformer2-ctc':
      modelConfig.zipformer2Ctc = { model: f.model };
      break;
    default:
      throw Object.assign(new Error(`a ${spec.family} model is offline-only: sherpa-onnx's online recognizer cannot run it`), { permanent: true });
  }
  return {
    featConfig: { sampleRate: SHERPA_SAMPLE_RATE, featureDim: 80 },
    modelConfig,
    decodingMethod: 'greedy_search',
    enableEndpoint: endpoint ? 1 : 0,
    ...(endpoint && {
      rule1MinTrailingSilence: endpoint.silenceBeforeWords,
      rule2MinTrailingSilence: endpoint.silenceAfterWords,
      rule3MinUtteranceLength: endpoint.maxUtterance,
    }),
  };
}
