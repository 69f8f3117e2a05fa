// The pin page's embedded queries ask with the variables its cached copy may carry: a
// signed-out page is one shared copy for every device, so nothing in it follows the User-Agent.
import { describe, expect, it } from "vitest";
import { pinPageQueries, SIGNED_OUT_IS_DESKTOP } from "./embed.server.ts";

const device = (isMobile: boolean, isTablet: boolean) => ({ isMobile, isTablet }) as Parameters<typeof pinPageQueries>[0]["userAgent"];
const detail = (queries: ReturnType<typeof pinPageQueries>) => queries.find(([name]) => name === "CloseupDetailQuery")![1];

describe("pinPageQueries", () => {
  it.each([
    ["a phone", device(true, false)],
    ["a tablet", device(false, true)],
    ["a desktop", device(false, false)],
  ])("signed out on %s: the same fixed isDesktop", (_, userAgent) => {
    expect(detail(pinPageQueries({ isAuthenticated: false, userAgent }, "7", null))).toEqual({ pinId: "7", isAuth: false, isDesktop: SIGNED_OUT_IS_DESKTOP });
  });

  it("signed in (a private, uncached page): follows the device", () => {
    expect(detail(pinPageQueries({ isAuthenticated: true, userAgent: device(true, false) }, "7", null)).isDesktop).toBe(false);
    expect(detail(pinPageQueries({ isAuthenticated: true, userAgent: device(false, false) }, "7", null)).isDesktop).toBe(true);
  });
});
