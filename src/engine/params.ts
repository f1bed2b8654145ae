// The engine's parameters (resource 20): defaults with V-Blaze's meanings, overridden by system parameters
// set with POST /system/set-parameter.
import path from 'node:path';
import { EngineParamFields, type EngineParams } from '../schema/resources/engineParams.js';
import { DEFAULT_MODEL, languagesOf, listModels } from './models.js';

export const ENGINE_PARAM_NAMES = Object.keys(EngineParamFields) as (keyof typeof EngineParamFields)[];

export function isEngineParam(name: string): name is keyof typeof EngineParamFields {
  return Object.hasOwn(EngineParamFields, name);
}

/** Defaults; times in milliseconds unless named otherwise. */
export function defaultEngineParams(dataDir: string): EngineParams {
  const models = listModels();
  const installed = models.filter((m) => m.installed);
  return {
    activitylevel: 175, // energy threshold of speech, 0-32768
    bufmaxtime: 60, // seconds of audio a stream may buffer
    idletimeout: 60, // seconds a stream may stay silent before it is closed
    punctrailing: 0, // trailing punctuation added to the last word of an utterance (0: none)
    pushconntimeout: 30, // seconds to connect to a push (notification) target
    uttmaxsilence: 800, // ms of silence that ends an utterance
    uttmaxtime: 60, // longest utterance, s
    uttminactivity: 500, // ms of speech that makes an utterance
    uttpadding: 300, // ms kept around speech
    scrubmindist: 0.3, // s: redacted audio spans closer than this are merged
    endian: 'LITTLE',
    languages: languagesOf(installed.length > 0 ? installed : models),
    // SCRUBLINE_DEFAULT_MODEL (e.g. a sherpa-onnx model the operator added); the system parameter `model` wins.
    model: process.env.SCRUBLINE_DEFAULT_MODEL || DEFAULT_MODEL,
    models: models.map((m) => m.name),
    outputdir: path.join(dataDir, 'output'),
    queue: 'bottom', // new jobs go to the bottom of the queue unless given a priority
    numtrans: true,
    punctuate: true,
    raw_events: false,
    realtime: false,
    recvtimeout: null,
    vadparams: { engine: 'energy', activitylevel: 175 },
  };
}
