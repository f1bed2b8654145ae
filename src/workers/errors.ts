// Errors cross a worker thread as plain data and are made again on the other side, so that a refusal raised
// in a worker (a ServiceError: a bad input is a 4xx) reaches the HTTP layer as the same typed error, never as
// an anonymous Error (a 500).
import { type ErrorKind, ServiceError } from '../errors.js';
import type { FieldIssue } from '../schema/problem.js';

export interface SentError {
  name: string;
  message: string;
  stack?: string;
  /** Set for a ServiceError. */
  service?: { kind: ErrorKind; issues: FieldIssue[]; extra: Record<string, unknown> };
}

export function sendError(error: unknown): SentError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const sent: SentError = { name: error.name, message: error.message, ...(error.stack && { stack: error.stack }) };
  if (error instanceof ServiceError) sent.service = { kind: error.kind, issues: error.issues, extra: error.extra };
  return sent;
}

export function receiveError(sent: SentError): Error {
  const error = sent.service ? new ServiceError(sent.service.kind, sent.message, sent.service.issues, sent.service.extra) : new Error(sent.message);
  error.name = sent.name;
  if (sent.stack) error.stack = sent.stack;
  return error;
}

/** What a task answers: its result, or the error it threw (sent as data). */
export type TaskReply<R> = { ok: true; result: R } | { ok: false; error: SentError };
