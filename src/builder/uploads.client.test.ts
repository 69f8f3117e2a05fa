import { describe, expect, it } from "vitest";
import { refusalMessage } from "./uploads.client.ts";

describe("refusalMessage: what a refused file's card says", () => {
  it("names the file's own reason after the message", () => {
    const body = { status: "failure", message: "This file can't be uploaded", message_detail: "file: must be a JPEG, PNG, WebP or GIF image, or an MP4 or WebM video" };
    expect(refusalMessage(body, "offline")).toBe("This file can't be uploaded: must be a JPEG, PNG, WebP or GIF image, or an MP4 or WebM video");
  });

  it("gives the message alone when no field is named", () => {
    expect(refusalMessage({ message: "This file is too large: files can be at most 200 MB", message_detail: null }, "offline")).toBe("This file is too large: files can be at most 200 MB");
  });

  it("falls back when the answer is not an envelope", () => {
    expect(refusalMessage(null, "The upload stopped")).toBe("The upload stopped");
  });
});
