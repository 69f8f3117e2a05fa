// The business hub's navigation (spec 002 §2 "Business management" and "Other"): the collapsible
// navigation's sections, the shortcuts a person may pin to the navbar (business properties
// BIZ_USER / NAVBAR_CONFIG, only inside the navigation experiment), the hub link carrying
// show_vmp=true, and the advertiser-area prefix for relative links on our own host.
import { EXPERIMENTS, type ExperimentName } from "~/experiments/experiments.ts";

export const NAVIGATION_EXPERIMENT = "web_business_navigation" satisfies ExperimentName;
export const navigationOn = (group: string | undefined) => group === EXPERIMENTS[NAVIGATION_EXPERIMENT][1];

/** Places a shortcut may point to: every page of the hub. */
export const SHORTCUT_IDS = ["dashboard", "ad_accounts", "asset_groups", "history", "marketing_plan", "onboarding", "profiles", "audiences", "tags", "hierarchy", "people", "invites", "partners", "billing"] as const;
export type ShortcutId = (typeof SHORTCUT_IDS)[number];

/** The collapsible navigation: a users section and an accounts section, each a list of hub pages. */
export const NAV_SECTIONS = [
  { id: "accounts", items: ["dashboard", "ad_accounts", "asset_groups", "marketing_plan", "profiles", "audiences", "tags", "hierarchy", "billing"] },
  { id: "users", items: ["history", "people", "invites", "partners"] },
] as const satisfies ReadonlyArray<{ id: string; items: readonly ShortcutId[] }>;

/** The business hub's own link: always with show_vmp=true. */
export const BUSINESS_HUB_PATH = "/business/hub/?show_vmp=true";

/** Where a business goes after signing up. */
export const BUSINESS_ONBOARDING_PATH = "/business/hub/onboarding/";

/** A hub page's path within a business (relative: the advertiser prefix is added by advertiserLink). */
export function hubPath(page: ShortcutId, businessId: string): string {
  switch (page) {
    case "dashboard":
      return `/business/hub/${businessId}/`;
    case "onboarding":
      return BUSINESS_ONBOARDING_PATH;
    default:
      return `/business/hub/${businessId}/${page.replace("_", "-")}/`;
  }
}

/**
 * Spec 002 §2: when an advertiser id is given and the link is on our own host, relative links
 * gain the /advertiser/{advertiserId} prefix. Links to other hosts, and links already inside
 * the advertiser area, are left as they are.
 */
export function advertiserLink(href: string, advertiserId: string | null, ownOrigin: string): string {
  if (advertiserId === null || !/^\d{1,18}$/.test(advertiserId)) return href;
  let url: URL;
  try {
    url = new URL(href, ownOrigin);
  } catch {
    return href;
  }
  if (url.origin !== new URL(ownOrigin).origin) return href;
  const prefix = `/advertiser/${advertiserId}`;
  if (url.pathname === prefix || url.pathname.startsWith(`${prefix}/`)) return href;
  return `${prefix}${url.pathname}${url.search}${url.hash}`;
}
