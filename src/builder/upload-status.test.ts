import { describe, expect, it } from "vitest";
import {
  draftProgress,
  forgetUpload,
  moveDraftKey,
  percentOf,
  startUpload,
  uploadCancelled,
  uploadDone,
  uploadFailed,
  uploadProgress,
  type UploadStatusMap,
} from "./upload-status.ts";

const EMPTY: UploadStatusMap = {};

describe("upload status map: per draft and per item", () => {
  it("starts an item uploading with nothing sent of the file's size", () => {
    expect(startUpload(EMPTY, "local-1", "a", 5000)).toEqual({ "local-1": { a: { phase: "uploading", loaded: 0, total: 5000, message: null, uploadId: null } } });
  });

  it("keeps each draft's items apart", () => {
    let map = startUpload(EMPTY, "d1", "a", 100);
    map = startUpload(map, "d1", "b", 300);
    map = startUpload(map, "d2", "c", 50);
    map = uploadProgress(map, "d1", "b", 150, 300);
    expect(map["d1"]!["a"]!.loaded).toBe(0);
    expect(map["d1"]!["b"]!.loaded).toBe(150);
    expect(map["d2"]!["c"]!.loaded).toBe(0);
  });

  it.each([
    ["moves forward", [40, 90], 90],
    ["never goes backwards", [90, 40], 90],
    ["never passes the total", [90, 250], 200],
  ])("progress %s", (_name, steps, expected) => {
    let map = startUpload(EMPTY, "d", "a", 200);
    for (const loaded of steps) map = uploadProgress(map, "d", "a", loaded, 200);
    expect(map["d"]!["a"]!.loaded).toBe(expected);
  });

  it("takes the request's own total when it reports one", () => {
    const map = uploadProgress(startUpload(EMPTY, "d", "a", 200), "d", "a", 10, 260);
    expect(map["d"]!["a"]).toMatchObject({ loaded: 10, total: 260 });
  });

  it("is updated to uploaded with the upload's id and a full bar", () => {
    let map = uploadProgress(startUpload(EMPTY, "d", "a", 200), "d", "a", 120, 200);
    map = uploadDone(map, "d", "a", "u-77");
    expect(map["d"]!["a"]).toEqual({ phase: "uploaded", loaded: 200, total: 200, message: null, uploadId: "u-77" });
  });

  it("keeps the server's message when the file is refused", () => {
    const map = uploadFailed(startUpload(EMPTY, "d", "a", 200), "d", "a", "This file can't be uploaded: must be a JPEG");
    expect(map["d"]!["a"]).toMatchObject({ phase: "failed", message: "This file can't be uploaded: must be a JPEG" });
  });

  it("ignores progress and answers after a cancel", () => {
    let map = uploadCancelled(startUpload(EMPTY, "d", "a", 200), "d", "a");
    map = uploadProgress(map, "d", "a", 150, 200);
    map = uploadDone(map, "d", "a", "u-1");
    expect(map["d"]!["a"]).toMatchObject({ phase: "cancelled", loaded: 0, uploadId: null });
  });

  it("leaves an unknown draft or item alone", () => {
    const map = startUpload(EMPTY, "d", "a", 10);
    expect(uploadProgress(map, "d", "zz", 5, 10)).toBe(map);
    expect(uploadDone(map, "other", "a", "u")).toBe(map);
  });

  it("moves a local key's items under the created draft's id", () => {
    let map = startUpload(EMPTY, "local-3", "a", 10);
    map = startUpload(map, "41", "b", 20);
    expect(moveDraftKey(map, "local-3", "41")).toEqual({ "41": { b: map["41"]!["b"], a: map["local-3"]!["a"] } });
  });

  it("forgets an item, and the draft with its last item", () => {
    let map = startUpload(EMPTY, "d", "a", 10);
    map = startUpload(map, "d", "b", 10);
    map = forgetUpload(map, "d", "a");
    expect(Object.keys(map["d"]!)).toEqual(["b"]);
    expect(forgetUpload(map, "d", "b")).toEqual({});
  });
});

describe("a draft's progress", () => {
  it("adds its items' bytes and is uploading while any item is", () => {
    let map = startUpload(EMPTY, "d", "a", 100);
    map = startUpload(map, "d", "b", 300);
    map = uploadDone(map, "d", "a", "u1");
    map = uploadProgress(map, "d", "b", 100, 300);
    expect(draftProgress(map, "d")).toEqual({ uploading: true, loaded: 200, total: 400 });
  });

  it("leaves failed and cancelled items out", () => {
    let map = startUpload(EMPTY, "d", "a", 100);
    map = startUpload(map, "d", "b", 300);
    map = uploadFailed(map, "d", "b", "too big");
    expect(draftProgress(map, "d")).toEqual({ uploading: true, loaded: 0, total: 100 });
    expect(draftProgress(EMPTY, "none")).toEqual({ uploading: false, loaded: 0, total: 0 });
  });
});

describe("percentOf", () => {
  it.each([
    [0, 0, 0],
    [0, 200, 0],
    [50, 200, 25],
    [199, 200, 99],
    [200, 200, 100],
    [300, 200, 100],
  ])("%i of %i is %i%%", (loaded, total, expected) => {
    expect(percentOf(loaded, total)).toBe(expected);
  });
});
