// Resource 7: the request shape (processJob.request and the event record's redactionRequest).
import Type, { type Static } from 'typebox';
import { group, open, opt, str } from '../fields.js';

export const Notification = open({
  url: opt(str()),
  method: opt(str()),
  auth_headers: opt(Type.Array(str(), { description: '"Name: value" header lines sent with the notification.' })),
});

export const JobRequest = open(
  {
    ...group(['sid', 'engine', 'program', 'language', 'policy', 'tracking_id'], str),
    insights: opt(Type.Array(str())),
    types: opt(Type.Array(str())),
    notification: opt(Notification),
  },
  { title: 'request', description: 'Resource 7.' },
);
export type JobRequest = Static<typeof JobRequest>;
