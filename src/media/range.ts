// HTTP byte ranges (RFC 9110 §14) for one range. Several ranges in one request are rare for
// media and would need multipart answers; like many media servers we serve the first.

export interface ByteRange {
  offset: number;
  length: number;
}

/**
 * Reads a Range header against an object of `size` bytes.
 * null: no usable range (serve the whole object, as the RFC allows for a header it ignores);
 * "unsatisfiable": a well-formed range that lies wholly outside the object (answer 416).
 */
export function parseRange(header: string, size: number): ByteRange | "unsatisfiable" | null {
  const match = /^bytes=(\d*)-(\d*)\s*(?:,.*)?$/i.exec(header.trim());
  if (!match) return null;
  const [, startText = "", endText = ""] = match;
  if (startText === "" && endText === "") return null;
  if (startText.length > 15 || endText.length > 15) return null;
  if (startText === "") {
    const suffix = Number(endText);
    if (suffix === 0) return "unsatisfiable";
    const length = Math.min(suffix, size);
    return size === 0 ? "unsatisfiable" : { offset: size - length, length };
  }
  const start = Number(startText);
  if (start >= size) return "unsatisfiable";
  const end = endText === "" ? size - 1 : Math.min(Number(endText), size - 1);
  if (end < start) return null;
  return { offset: start, length: end - start + 1 };
}
