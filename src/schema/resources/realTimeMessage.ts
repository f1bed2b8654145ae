// Resource 5: one message of a live conversation.
import type { Static } from 'typebox';
import { bool, content, group, ident, key, nullable, num, open, opt, phone } from '../fields.js';

export const RealTimeMessage = open(
  {
    ...group(
      [
        'direction', 'agentId', 'campaign', 'hostName', 'clientId', 'localIp', 'engagementStartTime', 'type',
        'emotion', 'speaker',
      ],
      ident,
    ),
    // The live conversation's key (engagementId, else ucid).
    ...group(['engagementId', 'ucid'], key),
    // remoteIp is the far end's address (an IPAddress value), not ours.
    ...group(['text', 'prompt', 'alert', 'insights', 'call_metadata', 'skill', 'remoteIp'], content),
    ...group(['fromNumber', 'toNumber', 'clientNumber', 'agentExtension'], phone),
    isFinal: opt(bool()),
    ...group(['messageEndTime', 'messageStartTime', 'confidence'], num),
    sentiment: opt(nullable()),
    gender: opt(nullable()),
  },
  { title: 'realTimeMessage', description: 'Resource 5.' },
);
export type RealTimeMessage = Static<typeof RealTimeMessage>;
