// Who gets a save island, and what it is told. Only a fully signed-in viewer on a page that may
// carry script: signed-out visitors keep the log-in Save (AuthModal), limited-login accounts
// cannot save (the server answers 403 code 17), and crawlers, search caches and ?server_only
// get no island and no save markup at all, so their HTML stays what it was.
import type { TFunction } from "i18next";
import type { RequestContext } from "~/context/request-context.ts";
import { saveStrings, type SaveStrings } from "./strings.ts";

/**
 * users.save_behavior (spec 001 §3 User.save_behavior): 0 = Save opens the board picker
 * (the default), 1 = Save quick-saves to the profile (boardless pins) and the picker is one
 * click away. Any other value is treated as 0.
 */
const SAVE_BEHAVIOR_PROFILE = 1;

const quickSaves = (saveBehavior: number | null | undefined) => saveBehavior === SAVE_BEHAVIOR_PROFILE;

export interface SaveIslandProps {
  strings: SaveStrings;
  quickSave: boolean;
  profileUrl: string;
}

export function saveIslandProps(ctx: Pick<RequestContext, "viewerType" | "noClientScript" | "session" | "renderMode">, t: TFunction): SaveIslandProps | null {
  const user = ctx.session?.user;
  if (ctx.viewerType !== "AUTH" || ctx.noClientScript || !user) return null;
  return { strings: saveStrings(t), ...viewerSaveProps(ctx.renderMode === "member" ? null : user) };
}

/**
 * The per-person part: quick-save and the profile it lists. A member template (made for no
 * one) holds inert values; each request's own are in its slot block (src/member-page/member-page.server.ts).
 */
export function viewerSaveProps(user: { save_behavior: number | null; username: string } | null): Omit<SaveIslandProps, "strings"> {
  return user ? { quickSave: quickSaves(user.save_behavior), profileUrl: `/${encodeURIComponent(user.username)}/` } : { quickSave: false, profileUrl: "/" };
}
