// The board calls of spec 000 §7 that keep their /v3 paths (mounted at /v3):
//   GET /v3/boards/{id}/                          → {board: {id, blocking_actions}}; with none,
//       the list is empty and the message is the spec's "No blocking actions found in the response".
//   GET /v3/pins/{id}/board_title_suggestions/    → {titles} (at most 5) for naming a board for the pin.
import { Hono } from "hono";
import { requireWriteAllowed } from "~/accounts/guards.server.ts";
import { requireBoardAction } from "~/boards/access.server.ts";
import { listBlockingActions } from "~/boards/blocking.server.ts";
import { idOption } from "~/boards/options.ts";
import { boardTitleSuggestions } from "~/boards/suggestions.ts";
import { suggestionInputs } from "~/boards/suggestions.server.ts";
import { requirePin } from "~/boards/write.server.ts";
import type { AppEnv } from "~/server/context.ts";
import { notFound } from "~/domain/errors.ts";

export const boardRoutes = new Hono<AppEnv>();

/** A path id as the API spells ids (1 to 18 digits); anything else is a 404 like an unknown board. */
function pathId(value: string | undefined): number {
  const parsed = idOption.safeParse(value);
  if (!parsed.success) throw notFound();
  return parsed.data;
}

const answer = (data: unknown, message = "ok") => ({ status: "success", code: 0, message, data });

boardRoutes.get("/boards/:id{[0-9]+}/", async (c) => {
  const boardId = pathId(c.req.param("id"));
  await requireBoardAction(c.env.DB, c.var.ctx, boardId, "view_public");
  const actions = await listBlockingActions(c.env.DB, boardId);
  const message = actions.length === 0 ? c.var.t("boards:blocking.none") : "ok";
  return c.json(answer({ board: { id: String(boardId), blocking_actions: actions } }, message), 200, { "Cache-Control": "private, no-store" });
});

boardRoutes.get("/pins/:id{[0-9]+}/board_title_suggestions/", async (c) => {
  const session = requireWriteAllowed(c.var.ctx);
  const db = c.env.DB;
  const pin = await requirePin(db, pathId(c.req.param("id")), session.user.id);
  const titles = boardTitleSuggestions(await suggestionInputs(db, pin.id, session.user.id));
  return c.json(answer({ titles }), 200, { "Cache-Control": "private, no-store" });
});
