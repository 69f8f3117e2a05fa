// Who gets the comments island, and what it is told. Crawlers, search caches and ?server_only
// (noClientScript) get none: their page keeps PinComments' server HTML only. Everyone else
// gets it; a full login can act, a signed-out visitor gets the log-in composer, and a limited
// login (the server answers its writes 403 code 17) reads only.
import type { RequestContext } from "~/context/request-context.ts";
import type { PinDetail } from "~/pins/pins.server.ts";
import { hostDigest } from "./blocked-hosts.ts";
import type { CommentsIslandProps } from "./CommentsIsland.tsx";

/** Blocked-host digests handed to the island, bounded so a huge table never bloats the page. */
const BLOCKED_HOSTS_MAX = 2000;

export async function commentsIslandProps(
  ctx: Pick<RequestContext, "viewerType" | "noClientScript" | "session" | "language" | "locale">,
  pin: Pick<PinDetail, "id" | "pinner" | "commentCount" | "commentsDisabled" | "didItCount">,
  blockedHosts: ReadonlySet<string>,
  country: string,
): Promise<CommentsIslandProps | null> {
  if (ctx.noClientScript) return null;
  const user = ctx.session?.user;
  const viewer = ctx.viewerType === "AUTH" && user ? { id: String(user.id), username: user.username, full_name: user.full_name ?? "" } : null;
  return {
    pinId: String(pin.id),
    pinner: { id: pin.pinner.id, username: pin.pinner.username, full_name: pin.pinner.fullName },
    viewer,
    signedOut: ctx.viewerType === "UNAUTH",
    commentCount: pin.commentCount,
    didItCount: pin.didItCount,
    commentsDisabled: pin.commentsDisabled,
    // Digests, never the hosts: the blocked list itself is not published in the page.
    blockedHostDigests: await Promise.all([...blockedHosts].slice(0, BLOCKED_HOSTS_MAX).map(hostDigest)),
    language: ctx.language,
    country,
    locale: ctx.locale,
  };
}
