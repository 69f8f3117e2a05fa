// The door of every settings page: a signed-in, full-login viewer with their settings, or a
// 302 to the login page, which comes back here through ?next=.
import type { AstroGlobal } from "astro";
import { env } from "cloudflare:workers";
import { loadSettingsViewer, type SettingsViewer } from "./page.server.ts";

const loginRedirectPath = (path: string) => `/login/?next=${encodeURIComponent(path)}`;

export async function settingsViewer(astro: AstroGlobal): Promise<SettingsViewer | Response> {
  return (await loadSettingsViewer(env.DB, astro.locals.ctx.session)) ?? astro.redirect(loginRedirectPath(astro.url.pathname), 302);
}
