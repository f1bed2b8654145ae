// Resource 20: the engine's default parameters (GET /asr/params and GET /params).
import Type, { type Static } from 'typebox';
import { bool, group, int, nullable, num, open, opt, str } from '../fields.js';

export const EngineParamFields = {
  ...group(
    ['activitylevel', 'bufmaxtime', 'idletimeout', 'punctrailing', 'pushconntimeout', 'uttmaxsilence', 'uttmaxtime', 'uttminactivity', 'uttpadding'],
    int,
  ),
  scrubmindist: opt(num()),
  endian: opt(str()),
  languages: opt(Type.Array(str())),
  model: opt(str()),
  models: opt(Type.Array(str())),
  outputdir: opt(str()),
  queue: opt(str()),
  ...group(['numtrans', 'punctuate', 'raw_events', 'realtime'], bool),
  recvtimeout: opt(nullable()),
  vadparams: opt(open({})),
};

export const EngineParams = open(EngineParamFields, { title: 'params', description: 'Resource 20 (inner object).' });
export type EngineParams = Static<typeof EngineParams>;

export const EngineParamsResponse = open({ params: EngineParams }, { title: 'engineParams', description: 'Resource 20.' });
export type EngineParamsResponse = Static<typeof EngineParamsResponse>;
