// The edge functions and where the app (src/app.ts) mounts them, in order. One list, so everything that
// needs the set of routes (the app itself, the test that sends generated input to each) agrees.
import type { Hono } from "hono";
import { graphqlRoutes } from "./graphql.ts";
import { attributionRoutes } from "./attribution.ts";
import { mediaRoutes } from "./media.ts";
import { resourceRoutes } from "./resource.ts";
import { seoRoutes } from "./seo.ts";
import { sessionRoutes } from "./session-routes.ts";
import { stateRoutes } from "./state.ts";
import { v3Routes } from "./v3.ts";
import { recommendationRoutes } from "./recommendations.ts";
import { conversionTagRoutes } from "./conversion-tag.ts";
import { conversionsApiRoutes } from "./conversions-api.ts";
import type { AppEnv } from "~/server/context.ts";

export const EDGE_ROUTES: ReadonlyArray<readonly [path: string, routes: Hono<AppEnv>]> = [
  ["/media", mediaRoutes],
  ["/resource", resourceRoutes],
  ["/v3", v3Routes],
  ["/", graphqlRoutes],
  ["/", seoRoutes],
  ["/", attributionRoutes],
  ["/", sessionRoutes],
  ["/_/_", stateRoutes],
  ["/ads/v4", recommendationRoutes],
  ["/", conversionTagRoutes],
  ["/v5", conversionsApiRoutes],
];
