// Resource 17: conversation metadata and measurements.
import type { Static } from 'typebox';
import { bool, content, dateTime, group, ident, int, num, numbered, open, phone, uuid } from '../fields.js';

export const Conversation = open(
  {
    ...group(['id', 'accountId', 'campaignId', 'agentId', 'jobId', 'languagePackId', 'engineId', 'playbookId'], uuid),
    ...group(
      [
        'recordingUrl', 'transcriptUrl', 'externalId', 'model', 'license', 'language', 'source', 'ivrErrorCode',
        'agentStationType', 'ivrLastModule', 'callMediaType', 'version',
      ],
      ident,
    ),
    ...group(
      [
        'name', 'skill', 'ivrErrorDesc', 'filters', ...numbered('feature', 5), ...numbered('setting', 10),
        ...numbered('platform', 5),
      ],
      content,
    ),
    ...group(['ani', 'dnis', 'callNumber'], phone),
    ...group(['startTime', 'endTime', 'deleteDate'], dateTime),
    ...group(
      [
        'duration', 'speakerChanges', 'agentUtterances', 'callerUtterances', 'agentTalkTime', 'callerTalkTime',
        'silence', 'overtalk', 'agentSentimentConfidence', 'callerSentimentConfidence', 'disposition', 'channels',
        'confidence', 'callType', 'callHandleTime', 'callParkTime', 'callHoldTime', 'callWrapupTime', 'callQueueTime',
        'callBillTime', 'positivePhrases', 'negativePhrases',
      ],
      num,
    ),
    ...group(
      ['direction', 'agentSentiment', 'callerSentiment', 'diarization', 'sentiment', 'behavior', 'confidenceLevel'],
      int,
    ),
    ...group(
      [
        'callerAbusive', 'agentAbusive', 'callerSarcastic', 'agentSarcastic', 'resolution', 'escalation', 'scored',
        'realTime', 'gender', 'emotion', ...numbered('featureFlag', 5), ...numbered('settingFlag', 10),
        ...numbered('platformFlag', 5),
      ],
      bool,
    ),
  },
  { title: 'conversation', description: 'Resource 17.' },
);
export type Conversation = Static<typeof Conversation>;
