// The account-switcher entry of spec 000 §3, shared by the server that builds it
// (switcher.server.ts) and the browser that stores it (client/accounts-list.ts).
import type { ErrorCode } from "~/server/errors.ts";

/** The code a switch answers when the account's own session has expired: ask for its password. */
export const REAUTH_REQUIRED = 19 satisfies typeof ErrorCode.ReauthRequired;

export interface PartnerInfo {
  contact_email: string | null;
  ownership_email: string | null;
  business_name: string | null;
  is_linked_business: boolean;
}

export interface SwitcherEntry {
  id: string;
  username: string;
  email: string | null;
  fullName: string;
  imageMediumUrl: string | null;
  imageLargeUrl: string | null;
  owners: SwitcherEntry[];
  partner: PartnerInfo | null;
  /** "businesses (list of the same shape)": entries of the business accounts this one runs. */
  businesses: SwitcherEntry[];
  /** False for an account whose session on this device has expired: it asks for its password. */
  isLoggedIn: boolean;
}
