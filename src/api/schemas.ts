// Route-level helpers for declaring responses: every route documents its problem answers the same way.
import Type, { type TSchema } from 'typebox';
import { ref } from '../schema/registry.js';

// Problems are sent as application/problem+json, and documented so.
const problemRef = () => ({ content: { 'application/problem+json': { schema: ref('Problem') } } }) as unknown as TSchema;

/** A response with the headers it carries, declared in the OpenAPI document (@fastify/swagger reads `headers`). */
export function withHeaders(schema: TSchema, headers: Record<string, TSchema>): TSchema {
  return { ...schema, headers } as unknown as TSchema;
}

// 429 and 503 say when to try again (problems.ts sets it whenever the error carries retryAfter).
const RETRY_AFTER = { 'Retry-After': Type.Integer({ minimum: 0, description: 'Seconds to wait before trying again.' }) };

/**
 * The responses of a route: its success shapes plus the problems any route may answer; a public route (no key
 * needed: `security: []`) never answers 401 or 403, and its document says so.
 */
export function responses(success: Record<number, TSchema>, problems: number[] = [400], { public: open = false }: { public?: boolean } = {}): Record<number, TSchema> {
  const out: Record<number, TSchema> = { ...success };
  for (const status of [...new Set([...problems, ...(open ? [] : [401, 403]), 429, 500])]) {
    out[status] = status === 429 || status === 503 ? withHeaders(problemRef(), RETRY_AFTER) : problemRef();
  }
  return out;
}

export const OpenObject = (description: string) => Type.Object({}, { additionalProperties: true, description });

/** Schemas marked so are validated in the handler, where the shape depends on the body itself. */
export const VALIDATED_IN_HANDLER = 'x-validated-in-handler';

/** A success answer in several media types, each with its own schema. */
export function mediaTypes(description: string, schemas: Record<string, TSchema>): TSchema {
  const content = Object.fromEntries(Object.entries(schemas).map(([mediaType, schema]) => [mediaType, { schema }]));
  return { description, content } as unknown as TSchema;
}
