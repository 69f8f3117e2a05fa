// Reading one cookie from a request's Cookie header, for the request context (locale) and the
// session layer (session and device cookies). Values are percent-decoded; a value that does not
// decode is returned as sent, never thrown at the request.

export function cookieValue(cookieHeader: string | null, name: string): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const index = part.indexOf("=");
    if (index < 0 || part.slice(0, index).trim() !== name) continue;
    const value = part.slice(index + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return null;
}
