// Every error answered as application/problem+json (RFC 9457). Client mistakes get their 4xx with the
// path of each invalid field; only a fault of the service itself is a 500, logged with its stack.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import pg from 'pg';
import { describeJsonError, type ErrorKind, ServiceError } from '../errors.js';
import type { FieldIssue, Problem } from '../schema/problem.js';
import { toIssues } from '../schema/validator.js';

export const STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_media: 415,
  misdirected: 421,
  unprocessable: 422,
  rate_limited: 429,
  not_implemented: 501,
  unavailable: 503,
};

const TITLES: Record<number, string> = {
  400: 'Invalid request',
  401: 'Authentication required',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  421: 'Misdirected request',
  422: 'Unprocessable content',
  426: 'Upgrade required',
  429: 'Too many requests',
  500: 'Internal server error',
  501: 'Not implemented',
  503: 'Service unavailable',
};

export function problem(status: number, detail: string, extra: Partial<Problem> & Record<string, unknown> = {}): Problem {
  return {
    type: `https://scrubline.dev/problems/${status}`,
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    ...extra,
  };
}

export function sendProblem(reply: FastifyReply, body: Problem): FastifyReply {
  return reply.code(body.status).type('application/problem+json; charset=utf-8').send(body);
}

/** Fastify's own error codes for malformed requests, with the status they deserve. */
const FASTIFY_CLIENT_ERRORS: Record<string, number> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 415,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 400,
  FST_ERR_CTP_BODY_TOO_LARGE: 413,
  FST_ERR_CTP_EMPTY_JSON_BODY: 400,
  FST_ERR_CTP_INVALID_JSON_BODY: 400,
  FST_ERR_CTP_EMPTY_TYPE: 415,
  FST_ERR_CTP_INVALID_TYPE: 415,
  FST_ERR_INVALID_URL: 400,
  FST_ERR_BAD_URL: 400,
};

/**
 * PostgreSQL errors that only a stored or compared value can cause (SQLSTATE): the request carried a value
 * validation should have refused. A last line of defence, answered 400 and logged as a validation gap; every
 * other database error stays a 500.
 */
const VALUE_REFUSED_BY_POSTGRES: Record<string, string> = {
  '22P05': 'a character the database cannot store (such as NUL)', // untranslatable_character
  '22021': 'a character the database cannot store (such as NUL)', // character_not_in_repertoire
  '22003': 'a number outside the range the database can store', // numeric_value_out_of_range
  '54000': 'a value too large for the database to store or index', // program_limit_exceeded
};

function refusedByDatabase(error: unknown): string | undefined {
  if (!(error instanceof pg.DatabaseError) || !error.code) return undefined;
  return VALUE_REFUSED_BY_POSTGRES[error.code];
}

function validationIssues(error: FastifyError): FieldIssue[] {
  const context = (error as FastifyError & { validationContext?: string }).validationContext ?? 'body';
  // Body paths are given from the body's root; other parts are prefixed with their name (query, params).
  const root = context === 'body' ? '' : `/${context === 'querystring' ? 'query' : context}`;
  return toIssues(error.validation as never, root);
}

export function registerProblemHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof ServiceError) {
      const status = STATUS[error.kind];
      // Too many requests, or the service at capacity (BusyError): the client is told when to try again.
      if ((error.kind === 'rate_limited' || error.kind === 'unavailable') && error.extra.retryAfter) reply.header('retry-after', String(error.extra.retryAfter));
      if (error.kind === 'unauthorized') reply.header('www-authenticate', 'Bearer');
      return sendProblem(reply, problem(status, error.message, { ...(error.issues.length > 0 && { errors: error.issues }), ...error.extra }));
    }
    if (error.validation) {
      const issues = validationIssues(error);
      const first = issues[0];
      const detail = first ? `${first.path} ${first.message}` + (issues.length > 1 ? ` (and ${issues.length - 1} more)` : '') : 'invalid request';
      return sendProblem(reply, problem(400, detail, { errors: issues }));
    }
    const code = error.code ?? '';
    if (code in FASTIFY_CLIENT_ERRORS) {
      const status = FASTIFY_CLIENT_ERRORS[code];
      let detail = error.message;
      if (status === 415) {
        const sent = request.headers['content-type'];
        detail = sent ? `Content-Type "${sent}" is not accepted here; send application/json.` : 'A Content-Type is required; send application/json.';
      }
      if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.name === 'SyntaxError') detail = describeJsonError(error);
      return sendProblem(reply, problem(status, detail));
    }
    if (error.name === 'SyntaxError' && error.statusCode === 400) {
      return sendProblem(reply, problem(400, describeJsonError(error)));
    }
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      return sendProblem(reply, problem(error.statusCode, error.message));
    }
    const refused = refusedByDatabase(error);
    if (refused) {
      request.log.warn({ err: error, route: request.routeOptions.url }, 'the database refused a value that validation let through');
      return sendProblem(reply, problem(400, `The request holds ${refused}.`));
    }
    request.log.error({ err: error }, 'request failed');
    return sendProblem(reply, problem(500, 'The service failed to answer this request; the failure is logged.'));
  });

  app.setNotFoundHandler((request, reply) => {
    sendProblem(reply, problem(404, `No route ${request.method} ${request.url.split('?')[0]}`));
  });
}

