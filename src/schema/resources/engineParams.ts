// Resource 20: the engine's default parameters (GET /asr/params and GET /params).
import Type, { type Static } from 'typebox';
import { bool, group, ident, int, nullable, num, open, opt } from '../fields.js';

export const EngineParamFields = {
  ...group(
    ['activitylevel', 'bufmaxtime', 'idletimeout', 'punctrailing', 'pushconntimeout', 'uttmaxsilence', 'uttmaxtime', 'uttminactivity', 'uttpadding'],
    int,
  ),
  scrubmindist: opt(num()),
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
