// Byte helpers shared by the Worker's binary paths (photo metadata stripping, member pages).

/** The parts one after another in a new array; the parts themselves are never written to. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((total, part) => total + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}
