// Profile view state (spec 000 §3 "profile view": boardPinDensity, boardSortOrder,
// profileBoardView, profilePinDensity). Pure values shared by the server (the sort order a
// URL names) and the device store (view-state.store.ts). The spec names the fields but not
// their values; these follow the product's familiar choices. No zod here: this ships to the
// browser, and a few includes() checks keep it tiny.

export const PIN_DENSITIES = ["default", "compact", "comfy"] as const;
type PinDensity = (typeof PIN_DENSITIES)[number];

/** last_saved: the board most recently saved to first; newest: by creation; alphabetical: A to Z. */
export const BOARD_SORT_ORDERS = ["last_saved", "alphabetical", "newest"] as const;
export type BoardSortOrder = (typeof BOARD_SORT_ORDERS)[number];
export const DEFAULT_BOARD_SORT: BoardSortOrder = "last_saved";

export const PROFILE_BOARD_VIEWS = ["grid", "list"] as const;
type ProfileBoardView = (typeof PROFILE_BOARD_VIEWS)[number];

export interface ProfileView {
  boardPinDensity: PinDensity;
  boardSortOrder: BoardSortOrder;
  profileBoardView: ProfileBoardView;
  profilePinDensity: PinDensity;
}

export const DEFAULT_PROFILE_VIEW: ProfileView = {
  boardPinDensity: "default",
  boardSortOrder: DEFAULT_BOARD_SORT,
  profileBoardView: "grid",
  profilePinDensity: "default",
};

function oneOf<T extends string>(allowed: readonly T[], value: unknown, fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

/** Any value (stored by any version, or by hand) as a view: each field falls back alone. */
export function toProfileView(value: unknown): ProfileView {
  const fields = (value !== null && typeof value === "object" ? value : {}) as Record<string, unknown>;
  return {
    boardPinDensity: oneOf(PIN_DENSITIES, fields["boardPinDensity"], DEFAULT_PROFILE_VIEW.boardPinDensity),
    boardSortOrder: oneOf(BOARD_SORT_ORDERS, fields["boardSortOrder"], DEFAULT_PROFILE_VIEW.boardSortOrder),
    profileBoardView: oneOf(PROFILE_BOARD_VIEWS, fields["profileBoardView"], DEFAULT_PROFILE_VIEW.profileBoardView),
    profilePinDensity: oneOf(PIN_DENSITIES, fields["profilePinDensity"], DEFAULT_PROFILE_VIEW.profilePinDensity),
  };
}

/** Stored text as a view; unreadable text is the default view, nothing throws. */
export function parseProfileView(text: string | null | undefined): ProfileView {
  try {
    return toProfileView(text ? JSON.parse(text) : null);
  } catch {
    return DEFAULT_PROFILE_VIEW;
  }
}

/** The board sort a URL's ?sort= names; anything else is the default order. */
export function boardSortFromQuery(value: string | null): BoardSortOrder {
  return oneOf(BOARD_SORT_ORDERS, value, DEFAULT_BOARD_SORT);
}

/** The classes on <html> that apply the view (styles key off them): no inline style needed. */
export function viewClasses(view: ProfileView): string[] {
  return [
    `pv-board-density-${view.boardPinDensity}`,
    `pv-profile-density-${view.profilePinDensity}`,
    `pv-board-view-${view.profileBoardView}`,
  ];
}

/** localStorage key of the device store. */
export const PROFILE_VIEW_KEY = "pinloom:profile-view";

/**
 * The script a profile or board page runs inline before its grids paint, so the stored view
 * applies with no layout shift: it sets viewClasses' classes on <html>. Kept in step with
 * viewClasses by view-state.test.ts.
 */
export const VIEW_STATE_SCRIPT = `(()=>{try{const v=JSON.parse(localStorage.getItem(${JSON.stringify(PROFILE_VIEW_KEY)})||"{}"),c=document.documentElement.classList,d=${JSON.stringify(PIN_DENSITIES)},w=${JSON.stringify(PROFILE_BOARD_VIEWS)},p=(a,x)=>a.includes(x)?x:a[0];c.add("pv-board-density-"+p(d,v.boardPinDensity),"pv-profile-density-"+p(d,v.profilePinDensity),"pv-board-view-"+p(w,v.profileBoardView))}catch(e){}})()`;
