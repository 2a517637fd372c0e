// Reading an outside service's answer (translation, Giphy): never more than a bound, whatever the
// service says its length is or streams, so a runaway answer costs no more than `maxBytes`.

/**
 * The answer's text, at most `maxBytes`: refused by its declared length before a byte is read,
 * else cut off (and the rest cancelled) once the bytes read pass the bound. `tooLarge` makes the
 * caller's error.
 */
export async function readCapped(response: Response, maxBytes: number, tooLarge: () => Error): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
