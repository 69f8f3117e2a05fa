// Who may call what (spec 000 §6). Every later feature asks these instead of reading the
// viewer itself: signed out → 401, limited login → 403 code 17, write-banned → 403.
import { DomainError } from "~/domain/errors.ts";
import type { Session } from "./session.server.ts";
import type { ViewerType } from "./viewer.ts";

/** Who is asking: the request context's session and login state (the request itself stays with the caller). */
export interface Viewer {
  session: Session | null;
  viewerType: ViewerType;
}

export const signedOut = () => new DomainError("unauthorized", { message: "api.unauthorized" });

/** Any live session, limited login included (reading your own account, signing out). */
export function requireSession(viewer: Viewer): Session {
  const session = viewer.session;
  if (!session) throw signedOut();
  return session;
}

/** A full login: limited-login viewers get 403 code 17 and are asked to log in fully. */
export function requireFullViewer(viewer: Viewer): Session {
  const session = requireSession(viewer);
  if (viewer.viewerType === "LIMITED_LOGIN") {
    throw new DomainError("limited_login", { message: "accounts:guard.limitedLogin" });
  }
  return session;
}

/** A full login that may change things: write-banned accounts get 403. */
export function requireWriteAllowed(viewer: Viewer): Session {
  const session = requireFullViewer(viewer);
  if (session.user.is_write_banned === 1) {
    throw new DomainError("forbidden", { message: "accounts:guard.writeBanned" });
  }
  return session;
}
