// What a visit saw before signing up goes with the sign-up and is kept with the account, in its
// batch: visited_pages (at most 20, 10 of them pin pages, paths on this site) and the recently
// viewed images in user_behavior_data.viewed_images (at most 11: the new one plus 10). Anything
// past those bounds is a 400 naming the field, and no account is made.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { Browser, type Envelope } from "./accounts-helpers.ts";

let next = 0;
function signupFields(extra: Record<string, string>): Record<string, string> {
  next++;
  return { email: `trail${next}@pinloom.test`, username: `trail_${next}`, password: "Sunny-Day#42", first_name: "Trail", country: "US", locale: "en_US", referrer: "", ...extra };
}
const signature = (n: number) => n.toString(16).padStart(32, "0");
const images = (count: number) => Array.from({ length: count }, (_, index) => signature(index + 1));

async function signUp(extra: Record<string, string>) {
  const fields = signupFields(extra);
  const response = await new Browser().form("/v3/register/email/handshake/", fields);
  const body = await response.json<Envelope & { message_detail?: string }>();
  const user = await env.DB.prepare("SELECT id FROM users WHERE username = ?1").bind(fields["username"]).first<{ id: number }>();
  return { status: response.status, detail: body.message_detail ?? "", userId: user?.id ?? null };
}

describe("a sign-up's trail", () => {
  it("keeps the visited pages and the 11 recently viewed images with the new account", async () => {
    const pages = ["/pin/7/", "/today/", "/demo/weeknight-dinners/pasta/", "/"];
    const { status, userId } = await signUp({ visited_pages: JSON.stringify(pages), user_behavior_data: JSON.stringify({ viewed_images: images(11) }) });
    expect(status).toBe(200);
    const row = await env.DB.prepare("SELECT visited_pages, viewed_images FROM signup_trails WHERE user_id = ?1").bind(userId).first<{ visited_pages: string; viewed_images: string }>();
    expect(JSON.parse(row!.visited_pages)).toEqual(pages);
    expect(JSON.parse(row!.viewed_images)).toEqual(images(11));
  });

  it("writes no trail row for a sign-up without one", async () => {
    const { status, userId } = await signUp({});
    expect(status).toBe(200);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM signup_trails WHERE user_id = ?1").bind(userId).first("n")).toBe(0);
  });

  it.each([
    ["12 viewed images", { user_behavior_data: JSON.stringify({ viewed_images: images(12) }) }, "user_behavior_data.viewed_images"],
    ["a viewed image that is not a signature", { user_behavior_data: JSON.stringify({ viewed_images: ["<img>"] }) }, "user_behavior_data.viewed_images"],
    ["viewed images that are not a list", { user_behavior_data: JSON.stringify({ viewed_images: "abc" }) }, "user_behavior_data.viewed_images"],
    ["21 visited pages", { visited_pages: JSON.stringify(Array.from({ length: 21 }, (_, index) => `/user${index}/`)) }, "visited_pages"],
    ["11 pin pages", { visited_pages: JSON.stringify(Array.from({ length: 11 }, (_, index) => `/pin/${index + 1}/`)) }, "visited_pages"],
    ["a page on another site", { visited_pages: JSON.stringify(["https://evil.example/"]) }, "visited_pages"],
  ])("refuses %s with a 400 naming the field, and makes no account", async (_, extra, field) => {
    const { status, detail, userId } = await signUp(extra);
    expect(status).toBe(400);
    expect(detail).toContain(`${field}:`);
    expect(userId).toBeNull();
  });
});
