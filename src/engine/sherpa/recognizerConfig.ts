// A model folder's spec → the configuration sherpa-onnx's offline recognizer takes. One thread per recognizer:
// the decoder pool spreads work over the cores, one decode per worker.
import type { OfflineRecognizerConfig } from './binding.js';
import type { SherpaModelSpec } from './modelFolder.js';

/** Every family here takes 16 kHz audio (sherpa-onnx resamples anything else itself, but we decode at this rate). */
export const SHERPA_SAMPLE_RATE = 16000;

export function recognizerConfig(spec: SherpaModelSpec, numThreads = 1): OfflineRecognizerConfig {
  const f = spec.files;
  const modelConfig: OfflineRecognizerConfig['modelConfig'] = { tokens: f.tokens, numThreads, provider: 'cpu', debug: 0 };
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
