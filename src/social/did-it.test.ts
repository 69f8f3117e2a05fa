// Spec 001 §3 "Did-it data", §4 "Reactions, follows and did-it".
import { describe, expect, it } from "vitest";
import { didItReducer, pinDidItReducer, type DidItData, type DidItEvent, type PinDidItEvent, type PinDidItState } from "./did-it.ts";

describe("pinDidItReducer: a did-it toggle moves images_count by ±1", () => {
  it.each<[string, PinDidItState, PinDidItEvent, PinDidItState]>([
    ["done adds 1", { done_by_me: false, images_count: 4, did_it_id: null }, { type: "done", did_it_id: "9" }, { done_by_me: true, images_count: 5, did_it_id: "9" }],
    ["undone subtracts 1", { done_by_me: true, images_count: 5, did_it_id: "9" }, { type: "undone" }, { done_by_me: false, images_count: 4, did_it_id: null }],
    ["never below 0", { done_by_me: true, images_count: 0, did_it_id: "9" }, { type: "undone" }, { done_by_me: false, images_count: 0, did_it_id: null }],
    ["done twice counts once", { done_by_me: true, images_count: 5, did_it_id: "9" }, { type: "done", did_it_id: "9" }, { done_by_me: true, images_count: 5, did_it_id: "9" }],
  ])("%s", (_, before, event, after) => {
    expect(pinDidItReducer(before, event)).toEqual(after);
  });
});

describe("didItReducer: like and helpful toggles move their counts by one", () => {
  const base: DidItData = { id: "9", comment_count: 2, like_count: 3, liked_by_me: false, helpful_count: 1, marked_helpful_by_me: false };
  it.each<[string, DidItData, DidItEvent, Partial<DidItData>]>([
    ["like adds 1", base, { type: "like" }, { like_count: 4, liked_by_me: true }],
    ["unlike subtracts 1", { ...base, liked_by_me: true }, { type: "unlike" }, { like_count: 2, liked_by_me: false }],
    ["liking twice counts once", { ...base, liked_by_me: true }, { type: "like" }, { like_count: 3, liked_by_me: true }],
    ["helpful adds 1", base, { type: "mark_helpful" }, { helpful_count: 2, marked_helpful_by_me: true }],
    ["unhelpful subtracts 1", { ...base, marked_helpful_by_me: true }, { type: "unmark_helpful" }, { helpful_count: 0, marked_helpful_by_me: false }],
    ["unhelpful never goes below 0", { ...base, helpful_count: 0, marked_helpful_by_me: true }, { type: "unmark_helpful" }, { helpful_count: 0, marked_helpful_by_me: false }],
    ["a comment changes comment_count by its increment", base, { type: "comment", increment: 1 }, { comment_count: 3 }],
  ])("%s", (_, before, event, changes) => {
    expect(didItReducer(before, event)).toEqual({ ...before, ...changes });
  });
});
