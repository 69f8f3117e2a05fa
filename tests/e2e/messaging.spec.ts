// Messaging in real browsers: two people in two browser contexts exchange messages and a pin,
// each seeing the other's arrive live over the conversation's socket; a stranger's first
// message arrives as a request and is declined; a blocked person's send is refused and shown
// as the server's words; and the header's messages count rises and clears live in every open
// tab of a person's. The e2e state outlives a run, so each test first puts the people's follows
// and blocks where it needs them.
import { expect, test, type Browser, type BrowserContext, type Page, type WebSocket } from "@playwright/test";
import { expectNoViolations } from "./axe.ts";
import { pageResource, signIn } from "./session.ts";

// docs/demo-accounts.md
const IDS = { demo: "1", marlowandmain: "2", bakeandbloom: "3", sam: "7" } as const;
const SAM = "Sam Okafor";
const PIN = "100001";

// eslint-disable-next-line no-empty-pattern -- Playwright's hook takes its fixtures first; none are needed here.
test.beforeEach(({}, testInfo) => {
  test.skip(testInfo.project.name !== "en", "one language is enough for the live round trip; the strings are checked by the unit and Worker suites");
});

// Contexts made from the worker's browser outlive the test unless closed: a conversation page
// left open would go on reading what a later test sends (an open conversation marks what
// arrives as seen), so every test closes the people it opened.
const opened: BrowserContext[] = [];
test.afterEach(async () => {
  await Promise.all(opened.splice(0).map((context) => context.close()));
});

async function person(browser: Browser, username: keyof typeof IDS): Promise<Page> {
  const context = await browser.newContext();
  opened.push(context);
  const page = await context.newPage();
  await signIn(page, username);
  return page;
}

/**
 * The first frame a socket to `path` receives on the page. It listens from the socket's opening:
 * a frame can come before the page's load does (a busy machine), and waiting for the socket and
 * only then for a frame would miss it and wait for one that never comes.
 */
function firstFrame(page: Page, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onSocket = (socket: WebSocket) => {
      if (!socket.url().includes(path)) return;
      socket.once("framereceived", () => {
        page.off("websocket", onSocket);
        resolve();
      });
    };
    page.on("websocket", onSocket);
    page.once("close", () => reject(new Error(`the page closed before a socket to ${path} received a frame`)));
  });
}

/** Opens a conversation page and waits until its socket has caught up, so nothing sent after is missed. */
async function openLive(page: Page, conversationId: string): Promise<void> {
  const caughtUp = firstFrame(page, `/v3/conversations/${conversationId}/socket/`);
  await page.goto(`/messages/${conversationId}/`);
  await caughtUp;
  await expect(page.getByRole("log")).toBeVisible();
}

async function type(page: Page, text: string): Promise<void> {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send", exact: true }).click();
}

test("two people exchange messages and a pin, each arriving live", async ({ browser }) => {
  // Two sign-ins, three pages and two axe runs: more than the default 30 s on a busy machine.
  test.setTimeout(90_000);
  const demo = await person(browser, "demo");
  const sam = await person(browser, "sam");
  // Sam follows demo, so demo's messages go straight to his inbox.
  await pageResource(demo, "UserBlockResource", "delete", { user_id: IDS.sam });
  await pageResource(sam, "UserBlockResource", "delete", { user_id: IDS.demo });
  await pageResource(sam, "UserFollowResource", "create", { user_id: IDS.demo });
  const started = await pageResource<{ id: string }>(demo, "ConversationsResource", "create", { user_ids: [IDS.sam], text: "Hello Sam" });
  expect(started.status).toBe(200);
  const id = started.data.id;
  await pageResource(sam, "ContactRequestsResource", "update", { contact_request_id: id, action: "accept" });

  await openLive(demo, id);
  await openLive(sam, id);
  await expectNoViolations(sam, "a conversation page");

  const stamp = Date.now().toString(36);
  await type(demo, `Are you free Saturday? ${stamp}`);
  await expect(sam.getByRole("log").getByText(`Are you free Saturday? ${stamp}`)).toBeVisible({ timeout: 5_000 });
  await type(sam, `Yes! Let's bake. ${stamp}`);
  await expect(demo.getByRole("log").getByText(`Yes! Let's bake. ${stamp}`)).toBeVisible({ timeout: 5_000 });
  // Sent once each: the temporary copy was replaced, not kept beside the server's.
  await expect(demo.getByRole("log").getByText(`Are you free Saturday? ${stamp}`)).toHaveCount(1);

  // Demo sends a pin from its close-up's share menu; Sam's open conversation shows it live.
  const closeup = await demo.context().newPage();
  await closeup.goto(`/pin/${PIN}/`);
  // The share menu's island, hydrated (Astro drops `ssr` from its element then).
  await expect(closeup.locator("astro-island:not([ssr]) .share-pin")).toBeAttached();
  await closeup.getByRole("button", { name: "Send", exact: true }).click();
  const dialog = closeup.getByRole("dialog", { name: "Send this Pin" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: `Send to ${SAM}` }).click();
  await expect(dialog.getByRole("status")).toHaveText(`Sent to ${SAM}`);
  await expectNoViolations(closeup, "the share menu");
  await expect(sam.getByRole("log").locator(`a[href="/pin/${PIN}/"]`).last()).toBeVisible({ timeout: 5_000 });
});

test("a stranger's request is declined, with undo offered", async ({ browser }) => {
  const sam = await person(browser, "sam");
  const stranger = await person(browser, "marlowandmain");
  await pageResource(sam, "UserBlockResource", "delete", { user_id: IDS.marlowandmain });
  await pageResource(sam, "UserFollowResource", "delete", { user_id: IDS.marlowandmain });
  const started = await pageResource<{ id: string }>(stranger, "ConversationsResource", "create", { user_ids: [IDS.sam], text: "Hi! Loved your Lisbon board." });
  expect(started.status).toBe(200);
  const id = started.data.id;
  // A request declined by an earlier run is brought back (what the undo toast does).
  await pageResource(sam, "ContactRequestsResource", "update", { contact_request_id: id, action: "undo" });

  await sam.goto("/messages/");
  await expect(sam.locator(".messages-page astro-island:not([ssr])")).toBeAttached();
  await sam.getByRole("button", { name: /^Message requests/ }).click();
  await sam.locator(`a[href="/messages/${id}/"]`).click();
  await expect(sam.getByText("wants to send you a message")).toBeVisible();
  await sam.getByRole("button", { name: "Decline" }).click();
  await expect(sam.locator("#shell-toasts").getByText("Request declined")).toBeVisible();
  await expect(sam.locator("#shell-toasts").getByRole("button", { name: "Undo" })).toBeVisible();
  const requests = await pageResource<{ results: Array<{ id: string }> }>(sam, "ContactRequestsResource", "get", {});
  expect(requests.data.results.map((conversation) => conversation.id)).not.toContain(id);
});

test("a blocked person's send is refused and their message is not kept", async ({ browser }) => {
  const sam = await person(browser, "sam");
  const blocked = await person(browser, "bakeandbloom");
  await pageResource(sam, "UserBlockResource", "delete", { user_id: IDS.bakeandbloom });
  const started = await pageResource<{ id: string }>(blocked, "ConversationsResource", "create", { user_ids: [IDS.sam], text: "Fresh bread today" });
  expect(started.status).toBe(200);
  const id = started.data.id;
  await pageResource(sam, "UserBlockResource", "create", { user_id: IDS.bakeandbloom });
  try {
    await blocked.goto(`/messages/${id}/`);
    await expect(blocked.getByRole("log")).toBeVisible();
    const text = `Still there? ${Date.now().toString(36)}`;
    await type(blocked, text);
    await expect(blocked.getByRole("alert")).toHaveText("You can't do that while one of you has blocked the other");
    await expect(blocked.getByRole("log").getByText(text)).toHaveCount(0);
  } finally {
    await pageResource(sam, "UserBlockResource", "delete", { user_id: IDS.bakeandbloom });
  }
});

/** Opens `path` in a tab and waits until the header's channel socket has told it the counts. */
async function openWithChannel(page: Page, path: string): Promise<void> {
  const told = firstFrame(page, "/v3/channel/");
  await page.goto(path);
  await told;
}

test("the header's messages count rises live in every open tab, and reading in one clears the others", async ({ browser }) => {
  test.setTimeout(60_000);
  const demo = await person(browser, "demo");
  const sam = await person(browser, "sam");
  await pageResource(demo, "UserBlockResource", "delete", { user_id: IDS.sam });
  await pageResource(sam, "UserBlockResource", "delete", { user_id: IDS.demo });
  await pageResource(sam, "UserFollowResource", "create", { user_id: IDS.demo });
  const started = await pageResource<{ id: string }>(demo, "ConversationsResource", "create", { user_ids: [IDS.sam], text: "Two tabs?" });
  expect(started.status).toBe(200);
  const id = started.data.id;
  await pageResource(sam, "ConversationResource", "update", { conversation_id: id, read: true });
  const before = (await pageResource<{ conversations_unseen_count: number }>(sam, "ConversationsResource", "get", {})).data.conversations_unseen_count;

  // Two of Sam's tabs on pages that have nothing to do with messages.
  const tabs = [sam, await sam.context().newPage()];
  await openWithChannel(tabs[0]!, "/today/");
  await openWithChannel(tabs[1]!, `/pin/${PIN}/`);
  const badge = (tab: Page) => tab.locator(".header-messages-badge");

  const sent = await pageResource(demo, "ConversationMessageResource", "create", { conversation_id: id, text: `Still on for Saturday? ${Date.now().toString(36)}` });
  expect(sent.status).toBe(200);
  for (const tab of tabs) await expect(badge(tab)).toHaveAttribute("data-count", String(before + 1), { timeout: 10_000 });

  // Sam opens the conversation in the first tab: the second tab's count falls back without a reload.
  await tabs[0]!.goto(`/messages/${id}/`);
  await expect(tabs[0]!.getByRole("log")).toBeVisible();
  if (before === 0) await expect(badge(tabs[1]!)).toHaveCount(0, { timeout: 10_000 });
  else await expect(badge(tabs[1]!)).toHaveAttribute("data-count", String(before), { timeout: 10_000 });
});
