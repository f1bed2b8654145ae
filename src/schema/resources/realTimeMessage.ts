// Resource 5: one message of a live conversation.
import type { Static } from 'typebox';
import { bool, group, nullable, num, open, opt, str } from '../fields.js';

export const RealTimeMessage = open(
  {
    ...group(
      [
        'fromNumber', 'direction', 'agentId', 'agentExtension', 'clientNumber', 'campaign', 'hostName', 'clientId',
        'localIp', 'toNumber', 'remoteIp', 'engagementId', 'ucid', 'skill', 'engagementStartTime', 'type',
        'call_metadata', 'emotion', 'text', 'prompt', 'alert', 'insights', 'speaker',
      ],
      str,
    ),
    isFinal: opt(bool()),
    ...group(['messageEndTime', 'messageStartTime', 'confidence'], num),
    sentiment: opt(nullable()),
    gender: opt(nullable()),
  },
  { title: 'realTimeMessage', description: 'Resource 5.' },
);
export type RealTimeMessage = Static<typeof RealTimeMessage>;
