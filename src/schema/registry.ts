// The shared schemas, each under its own $id: registered once with the validator and with Fastify, so that
// routes refer to them by name and the OpenAPI document lists them as components.
import Type, { type TSchema } from 'typebox';
import { Analytics } from './resources/analytics.js';
import { Campaign } from './resources/campaign.js';
import { Conversation } from './resources/conversation.js';
import { ContentGroup, Entity, InsightLine, KeyPhrase, Utterance } from './resources/conversationItems.js';
import { EngineParams, EngineParamsResponse } from './resources/engineParams.js';
import { EventRecord } from './resources/eventRecord.js';
import { Insight } from './resources/insight.js';
import { ProcessJob } from './resources/processJob.js';
import { ProjectConfig } from './resources/projectConfig.js';
import { RealTimeMessage } from './resources/realTimeMessage.js';
import { RedactionType } from './resources/redactionType.js';
import { JobRequest } from './resources/request.js';
import { SystemSettings } from './resources/systemSettings.js';
import { TranscriptShape } from './resources/transcriptShape.js';
import { VendorATranscript, VendorBTranscript } from './resources/vendorTranscripts.js';
import { Problem } from './problem.js';
import { JobBatch } from './jobBatch.js';
import { Job } from './job.js';

/** Every resource of the interface (numbered as in the spec) plus the service's own shared shapes. */
export const sharedSchemas = {
  EventRecord, // 1
  Campaign, // 2
  VendorATranscript, // 3
  VendorBTranscript, // 4
  RealTimeMessage, // 5
  ProcessJob, // 6
  JobRequest, // 7
  TranscriptShape, // 8
  Insight, // 9
  RedactionType, // 10
  Utterance, // 11
  InsightLine, // 12
  KeyPhrase, // 13
  Entity, // 14
  ContentGroup, // 15
  SystemSettings, // 16
  Conversation, // 17
  Analytics, // 18
  ProjectConfig, // 19
  EngineParams, // 20 (inner)
  EngineParamsResponse, // 20
  Problem,
  JobBatch,
  Job,
} as const satisfies Record<string, TSchema>;

export type SharedSchemaName = keyof typeof sharedSchemas;

/** The schemas as registered: each a copy carrying `$id` = its name. */
export function registeredSchemas(): (TSchema & { $id: string })[] {
  return Object.entries(sharedSchemas).map(([name, schema]) => ({ ...schema, $id: name }) as TSchema & { $id: string });
}

/** A reference to a shared schema, for route declarations. */
export const ref = (name: SharedSchemaName) => Type.Ref(name);
