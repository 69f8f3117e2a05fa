import { describe, expect, it } from "vitest";
import { buildRequestContext } from "~/context/request-context.ts";
import { memberBesideSession, socialBesideSession } from "./member-page.server.ts";

/** The JSON the companion SQL answers for pin 12 and viewer 7: one reaction count, one followed topic. */
const ANSWER = JSON.stringify({
  viewer_id: 7,
  updated_at: 1000,
  comment_count: 0,
  save_count: 1,
  board_updated_at: null,
  public: 1,
  related: 0,
  did_it_images_count: 0,
  sponsorship: null,
  did_it_id: null,
  reaction_by_me: 1,
  counts: [{ reaction_type: 1, count: 3 }],
  topics: [{ id: 5, key: "food", name: "Food", followed: 1 }],
  people: null,
});

describe("the member page's read beside the session", () => {
  it("is asked for a GET of a close-up only", () => {
    expect(memberBesideSession("GET", "/pin/12/")?.companion.subject).toBe("12");
    expect(memberBesideSession("POST", "/pin/12/")).toBeNull();
    expect(memberBesideSession("GET", "/")).toBeNull();
    expect(memberBesideSession("GET", "/pin/12/sent/")).toBeNull();
  });

  it("hands the personal render the social block it read, for that pin and viewer only", () => {
    const ctx = buildRequestContext(new Request("https://pinloom.test/pin/12/"));
    expect(socialBesideSession(ctx, "12", 7)).toBeNull(); // nothing read yet
    memberBesideSession("GET", "/pin/12/")!.keep(ctx, ANSWER);
    const social = socialBesideSession(ctx, "12", 7);
    expect(social?.reactions.reaction_counts).toEqual([{ reaction_type: 1, count: 3 }]);
    expect(social?.topics.map((topic) => topic.id)).toEqual(["5"]);
    expect(socialBesideSession(ctx, "12", 8)).toBeNull();
    expect(socialBesideSession(ctx, "13", 7)).toBeNull();
    memberBesideSession("GET", "/pin/12/")!.keep(ctx, null); // no such pin
    expect(socialBesideSession(ctx, "12", 7)).toBeNull();
  });
});
