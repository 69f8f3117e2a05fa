// The account-switcher entry of spec 000 §3, shared by the server that builds it
// (switcher.server.ts) and the browser that stores it (client/accounts-list.ts).

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
  isLoggedIn: boolean;
}
