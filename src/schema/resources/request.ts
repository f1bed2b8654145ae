// Resource 7: the request shape (processJob.request and the event record's redactionRequest).
import Type, { type Static } from 'typebox';
import { credential, group, ident, key, open, opt } from '../fields.js';

export const Notification = open({
  url: opt(ident()),
  method: opt(ident()),
  auth_headers: opt(Type.Array(credential(), { description: '"Name: value" header lines sent with the notification.' })),
});

export const JobRequest = open(
  {
    ...group(['sid', 'tracking_id'], key),
    ...group(['engine', 'program', 'language', 'policy'], ident),
    insights: opt(Type.Array(ident())),
    types: opt(Type.Array(ident())),
    notification: opt(Notification),
  },
  { title: 'request', description: 'Resource 7.' },
);
export type JobRequest = Static<typeof JobRequest>;
