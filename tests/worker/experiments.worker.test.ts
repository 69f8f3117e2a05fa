// Server-assigned experiment groups (src/experiments): the spec's pin-grid footer rule (000 §4)
// on the pages that end in an infinite grid, per group; nothing per visitor for signed-out.
import { beforeAll, describe, expect, it } from "vitest";
import { assignExperiments, PIN_GRID_FOOTER_EXPERIMENT } from "~/experiments/experiments.ts";
import { get } from "./fixtures.ts";
import { browserFor, CAST, seedCast } from "./roles-fixture.ts";
import type { BoardRole } from "~/boards/policy.ts";

const FOOTER = 'class="site-footer"';
const GRID_PAGES = ["/", "/cast_owner/", "/cast_owner/cast-corkboard/", "/search/pins/?q=cast"];

/** A cast member in the footer experiment's group (computed, so the test follows the hash). */
function memberIn(group: string): BoardRole {
  const found = (Object.entries(CAST) as Array<[BoardRole, number]>).find(([, id]) => assignExperiments(id)[PIN_GRID_FOOTER_EXPERIMENT] === group);
  if (!found) throw new Error(`no cast member in ${group}`);
  return found[0];
}

beforeAll(seedCast);

describe("pin-grid footer (spec 000 §4)", () => {
  it("is hidden under every infinite grid for a signed-in person in the hide_footer group, and kept elsewhere", async () => {
    const browser = await browserFor(memberIn("hide_footer"));
    for (const path of GRID_PAGES) {
      const response = await browser.fetch(path);
      expect(response.status, path).toBe(200);
      expect(await response.text(), path).not.toContain(FOOTER);
    }
    // A page without a pin grid keeps the footer.
    expect(await (await browser.fetch("/settings/edit/comments")).text()).toContain(FOOTER);
  });

  it("is shown to a signed-in person in the control group and to signed-out visitors", async () => {
    const control = await browserFor(memberIn("control"));
    for (const path of GRID_PAGES) {
      expect(await (await control.fetch(path)).text(), path).toContain(FOOTER);
      expect(await (await get(path)).text(), path).toContain(FOOTER);
    }
  });
});
