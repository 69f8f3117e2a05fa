// The story editor's call that keeps its /v3 path (mounted at /v3):
//   GET /v3/storypins/fonts/   → {fonts: [{id, name, family, weights}]}: every font the editor
//       offers (src/stories/fonts.ts), its name in the viewer's language. The same for everyone.
import { Hono } from "hono";
import type { AppEnv } from "~/server/context.ts";
import { STORY_FONTS } from "~/stories/fonts.ts";

export const storyRoutes = new Hono<AppEnv>();

storyRoutes.get("/storypins/fonts/", (c) => {
  const fonts = STORY_FONTS.map((font) => ({ id: font.id, name: c.var.t(font.nameKey), family: font.family, weights: font.weights }));
  // Names follow the viewer's language, so a shared cache must not hold one language for all.
  return c.json({ status: "success", code: 0, message: "ok", data: { fonts } }, 200, { "Cache-Control": "private, max-age=3600", Vary: "Cookie, Accept-Language" });
});
