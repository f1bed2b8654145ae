// Opaque paging cursors: the position of the last item of a page, as base64url JSON. A client passes it back
// unchanged (`cursor=`); anything else is its 400, never a 500 or a silently restarted list.
import { invalid } from '../errors.js';

/** The cursor of a position (the list's sort keys of the last item answered). */
export function encodeCursor(position: Record<string, string>): string {
  return Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
}

/** The position a cursor names; a 400 naming `cursor` when it is not one this service made with these keys. */
export function decodeCursor<K extends string>(cursor: string, keys: readonly K[]): Record<K, string> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  const ok = value !== null && typeof value === 'object' && keys.every((k) => typeof (value as Record<string, unknown>)[k] === 'string');
  if (!ok) {
    const message = 'is not a cursor this list answered (pass nextCursor back unchanged)';
    throw invalid(`cursor ${message}`, [{ pointer: '/query/cursor', path: 'query.cursor', message }]);
  }
  return value as Record<K, string>;
}
