// `streamtags` of the vendor shapes: the request's flags echoed back. Form fields arrive as text, so the
// fields the interface declares are coerced to their type ("true" -> true); other primitive values are echoed
// as given; nothing that looks like a credential is ever echoed.

const SECRET = /token|secret|password|passwd|apikey|api_key|accesskey|acesskey|authorization|auth_headers|credential|appkey/i;

function toBool(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(v)) return true;
    if (['false', '0', 'no', 'off', ''].includes(v)) return false;
  }
  return undefined;
}

function toStr(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

export function echoStreamtags(
  flags: Record<string, unknown> | undefined,
  declaredBooleans: readonly string[],
  declaredStrings: readonly string[],
): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(flags ?? {})) {
    if (SECRET.test(key) || value === undefined || value === null) continue;
    if (declaredBooleans.includes(key)) {
      const b = toBool(value);
      if (b !== undefined) out[key] = b;
    } else if (declaredStrings.includes(key)) {
      const s = toStr(value);
      if (s !== undefined) out[key] = s;
    } else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      out[key] = value;
    }
  }
  return out;
}
