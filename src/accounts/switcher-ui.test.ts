// The switcher's "log in again" path as the browser first renders it: an account whose session
// on this device expired is offered as such, and the login form comes filled in for it.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import AccountMenu from "./AccountMenu.tsx";
import LoginForm from "./LoginForm.tsx";
import { authStrings } from "./auth-strings.ts";
import { $accounts, toEntry } from "./accounts-store.client.ts";
import { getT } from "~/i18n/i18n.ts";

const strings = authStrings(getT("en_US"));
/** A stored entry, completed by the store's own reader (nulls and empty lists for the rest). */
const entry = (id: string, username: string, isLoggedIn: boolean) => toEntry({ id, username, isLoggedIn })!;

afterEach(() => $accounts.set([]));

describe("the account menu", () => {
  it("offers a switch to a signed-in account and a fresh login to one whose session expired", () => {
    $accounts.set([entry("1", "ana", true), entry("2", "ben", true), entry("3", "sam", false)]);
    const html = renderToStaticMarkup(
      createElement(AccountMenu, { viewer: { id: "1", name: "ana", username: "ana", imageUrl: null }, limited: false, strings, country: "US", locale: "en_US" }),
    );
    expect(html).toContain('aria-label="Switch to ben"');
    expect(html).toContain("@ben");
    expect(html).toContain('aria-label="Log in again as sam"');
    expect(html).toContain(">Log in again<");
    expect(html).not.toContain("Switch to sam");
  });
});

describe("the login form, asked again for a known account", () => {
  it("comes filled in with the account and says why", () => {
    const again = { usernameOrEmail: "sam", notice: "Your session for @sam has ended. Enter your password to switch back." };
    const html = renderToStaticMarkup(createElement(LoginForm, { strings, next: "/", idPrefix: "t", again }));
    expect(html).toMatch(/<input[^>]*name="username_or_email"[^>]*value="sam"/);
    expect(html).toContain('<p class="auth-again" id="t-again">Your session for @sam has ended. Enter your password to switch back.</p>');
    expect(html).toMatch(/<form[^>]*aria-describedby="t-again"/);
  });

  it("is empty otherwise", () => {
    const html = renderToStaticMarkup(createElement(LoginForm, { strings, next: "/", idPrefix: "t" }));
    expect(html).not.toContain("auth-again");
    expect(html).not.toMatch(/name="username_or_email"[^>]*value=/);
  });
});
