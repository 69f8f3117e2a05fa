// X-App-Version on every response, pages, JSON and errors alike: the client fetch layer
// (src/runtime/fetch.ts) compares it with the version its own script was built as and reloads
// on the next route change when they differ (spec 000 §4 "Version change").
import type { MiddlewareHandler } from "hono";
import { BUILD_VERSION } from "~/runtime/build-version.ts";
import { APP_VERSION_HEADER } from "~/runtime/headers.ts";
import type { AppEnv } from "./context.ts";

export function appVersion(version: string = BUILD_VERSION): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    try {
      c.res.headers.set(APP_VERSION_HEADER, version);
    } catch {
      // Responses from bindings (static assets, fetch) have immutable headers: copy once.
      c.res = new Response(c.res.body, c.res);
      c.res.headers.set(APP_VERSION_HEADER, version);
    }
  };
}
