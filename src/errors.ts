// Errors the service raises on purpose. Each kind maps to one HTTP status in api/problems.ts, so services
// stay free of HTTP while every refusal still reaches the client as a precise problem.
import type { FieldIssue } from './schema/problem.js';

export type ErrorKind =
  | 'invalid' // 400
  | 'unauthorized' // 401
  | 'forbidden' // 403
  | 'not_found' // 404
  | 'conflict' // 409
  | 'too_large' // 413
  | 'unsupported_media' // 415
  | 'misdirected' // 421
  | 'unprocessable' // 422
  | 'rate_limited' // 429
  | 'not_implemented' // 501
  | 'unavailable'; // 503

export class ServiceError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly issues: FieldIssue[] = [],
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

export function invalid(message: string, issues: FieldIssue[] = []): ServiceError {
  return new ServiceError('invalid', message, issues);
}

export function notFound(message: string): ServiceError {
  return new ServiceError('not_found', message);
}

/**
 * JSON parse errors quote the text around the fault, which may be a credential: only the position is told.
 */
export function describeJsonError(error: Error, what = 'The body'): string {
  const position = /position (\d+)/.exec(error.message)?.[1];
  return `${what} is not valid JSON${position ? ` (the first fault is at character ${position})` : ''}.`;
}
