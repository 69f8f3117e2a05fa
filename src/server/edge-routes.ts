// The edge functions and where the app mounts them, in order. One list, so everything that
// needs the set of routes (the app itself, the test that sends generated input to each) agrees.
import type { Hono } from "hono";
import { graphqlRoutes } from "../../functions/graphql.ts";
import { attributionRoutes } from "../../functions/attribution.ts";
import { mediaRoutes } from "../../functions/media.ts";
import { resourceRoutes } from "../../functions/resource.ts";
import { seoRoutes } from "../../functions/seo.ts";
import { sessionRoutes } from "../../functions/session-routes.ts";
import { stateRoutes } from "../../functions/state.ts";
import { v3Routes } from "../../functions/v3.ts";
import type { AppEnv } from "./context.ts";

export const EDGE_ROUTES: ReadonlyArray<readonly [path: string, routes: Hono<AppEnv>]> = [
  ["/media", mediaRoutes],
  ["/resource", resourceRoutes],
  ["/v3", v3Routes],
  ["/", graphqlRoutes],
  ["/", seoRoutes],
  ["/", attributionRoutes],
  ["/", sessionRoutes],
  ["/_/_", stateRoutes],
];
