import { describe, expect, it } from "vitest";
import { attachmentOf, createConversationOptions, sendMessageOptions } from "./options.ts";

const paths = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) => result.error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`) ?? [];

describe("message options", () => {
  it("trims text and bounds it at 2,000 characters as people count them", () => {
    expect(sendMessageOptions.parse({ conversation_id: "5", text: "  hi  " }).text).toBe("hi");
    // 2,000 emoji are 4,000 UTF-16 units and still 2,000 characters.
    expect(sendMessageOptions.safeParse({ conversation_id: "5", text: "😀".repeat(2000) }).success).toBe(true);
    expect(paths(sendMessageOptions.safeParse({ conversation_id: "5", text: "a".repeat(2001) }))).toEqual(["text: common:validation.tooLong"]);
  });

  it("needs words or an attachment, and takes one attachment at most", () => {
    expect(paths(sendMessageOptions.safeParse({ conversation_id: "5", text: " " }))).toEqual(["text: messages:validation.emptyMessage"]);
    expect(sendMessageOptions.safeParse({ conversation_id: "5", text: "", pin: "9" }).success).toBe(true);
    expect(paths(sendMessageOptions.safeParse({ conversation_id: "5", text: "x", pin: "9", user: "3" }))).toEqual(["user: messages:validation.oneAttachment"]);
  });

  it("names the attachment for the data layer", () => {
    expect(attachmentOf({ text: "", user_did_it_data: 12 })).toEqual({ kind: "did_it", id: 12 });
    expect(attachmentOf({ text: "hi" })).toBeNull();
  });

  it("starts a conversation with one to ten people, addresses lower-cased", () => {
    expect(createConversationOptions.parse({ emails: ["Ana@Example.com"], text: "hi" }).emails).toEqual(["ana@example.com"]);
    expect(paths(createConversationOptions.safeParse({ text: "hi" }))).toEqual(["user_ids: messages:validation.noRecipient"]);
    const eleven = { user_ids: ["1", "2", "3", "4", "5", "6"], emails: ["a@x.io", "b@x.io", "c@x.io", "d@x.io", "e@x.io"], text: "hi" };
    expect(paths(createConversationOptions.safeParse(eleven))).toEqual(["user_ids: messages:validation.tooManyPeople"]);
  });
});
