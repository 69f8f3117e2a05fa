import { describe, expect, it, vi } from "vitest";

// The inbox's calls answer when the test says, so a channel frame can fall between a call and its answer.
const answers: Array<(value: unknown) => void> = [];
vi.mock("~/api/api.client.ts", () => ({
  ApiCallError: class extends Error {},
  resource: vi.fn(() => new Promise((resolve) => answers.push(resolve))),
}));
const { $inbox, channelCounted, loadInbox } = await import("./inbox.client.ts");

const page = (unseen: number) => ({ results: [], bookmark: null, conversations_unseen_count: unseen });

describe("the header's messages count", () => {
  it("keeps the count the channel told while the inbox was being read: the answer was read before it", async () => {
    channelCounted(1);
    const load = loadInbox();
    // A message arrives: the channel tells 2, then the inbox's answers, read just before, say 1.
    channelCounted(2);
    for (const answer of answers.splice(0)) answer(page(1));
    await load;
    expect($inbox.get().unseen).toBe(2);
    expect($inbox.get().loaded).toBe(true);
  });

  it("takes the answer's count when the channel said nothing while it was read", async () => {
    channelCounted(5);
    const load = loadInbox();
    for (const answer of answers.splice(0)) answer(page(3));
    await load;
    expect($inbox.get().unseen).toBe(3);
  });
});
