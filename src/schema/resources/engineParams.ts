// Resource 20: the engine's default parameters (GET /asr/params and GET /params).
import Type, { type Static } from 'typebox';
import { bool, group, ident, nullable, open, opt } from '../fields.js';

/**
 * The ranges of the numeric engine parameters, declared once: a job's parameters (jobs/request.ts) and
 * POST /system/set-parameter (cache/parameters.ts) refuse the same values.
 */
export const ENGINE_PARAM_RANGES = {
  activitylevel: { minimum: 0, maximum: 32768, description: 'Energy threshold of speech.' },
  bufmaxtime: { minimum: 1, maximum: 3600, description: 'Seconds of audio a stream may buffer.' },
  idletimeout: { minimum: 1, maximum: 86_400, description: 'Seconds a stream may stay silent before it is closed.' },
  punctrailing: { minimum: 0, maximum: 60_000, description: 'Trailing punctuation added to the last word of an utterance (0: none).' },
  pushconntimeout: { minimum: 1, maximum: 600, description: 'Seconds to connect to a push (notification) target.' },
  uttmaxsilence: { minimum: 50, maximum: 60_000, description: 'ms of silence that ends an utterance.' },
  uttmaxtime: { minimum: 1, maximum: 3600, description: 'Longest utterance, s.' },
  uttminactivity: { minimum: 0, maximum: 60_000, description: 'ms of speech that makes an utterance.' },
  uttpadding: { minimum: 0, maximum: 10_000, description: 'ms kept around speech.' },
} as const;

/** A numeric engine parameter within its declared range. */
export const engineInt = (name: keyof typeof ENGINE_PARAM_RANGES) => Type.Integer({ ...ENGINE_PARAM_RANGES[name] });
/** scrubmindist (s): redacted audio spans closer than this merge. */
export const scrubMinDist = () => Type.Number({ minimum: 0, maximum: 3600, description: 'Redacted audio spans closer than this (s) merge.' });

export const EngineParamFields = {
  activitylevel: opt(engineInt('activitylevel')),
  bufmaxtime: opt(engineInt('bufmaxtime')),
  idletimeout: opt(engineInt('idletimeout')),
  punctrailing: opt(engineInt('punctrailing')),
  pushconntimeout: opt(engineInt('pushconntimeout')),
  uttmaxsilence: opt(engineInt('uttmaxsilence')),
  uttmaxtime: opt(engineInt('uttmaxtime')),
  uttminactivity: opt(engineInt('uttminactivity')),
  uttpadding: opt(engineInt('uttpadding')),
  scrubmindist: opt(scrubMinDist()),
  endian: opt(ident()),
  languages: opt(Type.Array(ident())),
  model: opt(ident()),
  models: opt(Type.Array(ident())),
  outputdir: opt(ident()),
  queue: opt(ident()),
  ...group(['numtrans', 'punctuate', 'raw_events', 'realtime'], bool),
  recvtimeout: opt(nullable()),
  vadparams: opt(open({})),
};

export const EngineParams = open(EngineParamFields, { title: 'params', description: 'Resource 20 (inner object).' });
export type EngineParams = Static<typeof EngineParams>;

export const EngineParamsResponse = open({ params: EngineParams }, { title: 'engineParams', description: 'Resource 20.' });
export type EngineParamsResponse = Static<typeof EngineParamsResponse>;
