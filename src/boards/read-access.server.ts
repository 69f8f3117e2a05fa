// Reading a board through the saving API: the policy's view check (requireBoardAction
// "view_public", which checks view_private for a private board), plus the profile rule the
// board page applies (src/users/user.ts canViewProfile): a board of a private or limited-login
// profile answers 404 to anyone but its people, like its page does. Proposed to move into
// access.server.ts (see the issue 5 report) so every reader shares it.
import type { Context } from "hono";
import type { AppEnv } from "../server/context.ts";
import { notFound } from "../server/errors.ts";
import { canViewProfile, type LoginState } from "../users/user.ts";
import { requireBoardAction } from "./access.server.ts";

export async function requireBoardRead(c: Context<AppEnv>, boardId: number) {
  const access = await requireBoardAction(c, boardId, "view_public");
  if (access.role === "owner" || access.role === "collaborator_write" || access.role === "collaborator_delete") return access;
  const owner = await c.env.DB.prepare("SELECT id, is_private_profile, login_state FROM users WHERE id = ?1")
    .bind(access.board.owner_id)
    .first<{ id: number; is_private_profile: number; login_state: LoginState }>();
  if (!owner || !canViewProfile(owner, access.viewerId)) throw notFound("api.boardNotFound");
  return access;
}
