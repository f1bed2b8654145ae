// PCM chunks joined into one buffer (a stream's queued chunks, test and bench audio made of several recordings).

export function concatPcm(parts: readonly Int16Array[], total = parts.reduce((n, p) => n + p.length, 0)): Int16Array {
  const out = new Int16Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
