// Runs on every page with script (from the header): the search text shown elsewhere (spec 000
// §2) and the search page's part of the search state. A search page leaves its query in this
// tab's sessionStorage; other pages (close-ups included) show it in the header box. On page 1
// of a search, a signed-out person's query joins this device's recent searches, the query is
// started (valid), and a pin opened from its results joins the query's viewed pins.
import { addDeviceRecent, localStorageOrNull } from "./device-recent.client.ts";
import { $queries, LAST_QUERY_KEY, searchActions, shownSearchText, type QueryRecord } from "./state.ts";
import { parseScope } from "./query-text.ts";

const QUERIES_KEY = "pinloom:search:queries";

function session(): Pick<Storage, "getItem" | "setItem"> | null {
  try {
    return sessionStorage;
  } catch {
    return null;
  }
}

function save(storage: Pick<Storage, "setItem"> | null): void {
  try {
    storage?.setItem(QUERIES_KEY, JSON.stringify($queries.get()));
  } catch {
    // storage full or disabled: the state lives for this page only
  }
}

function load(storage: Pick<Storage, "getItem"> | null): void {
  try {
    const value = JSON.parse(storage?.getItem(QUERIES_KEY) ?? "{}") as Record<string, QueryRecord>;
    if (value && typeof value === "object") $queries.set(value);
  } catch {
    // a broken entry starts over
  }
}

export function startSearchText(): void {
  const storage = session();
  const page = document.querySelector<HTMLElement>("[data-search-page]");
  const query = page?.dataset["searchQuery"] ?? "";
  const previous = storage?.getItem(LAST_QUERY_KEY) ?? null;
  const shown = shownSearchText(previous, location.pathname, page ? query : null);
  try {
    if (shown && shown !== previous) storage?.setItem(LAST_QUERY_KEY, shown);
  } catch {
    // storage full or disabled
  }
  const input = document.querySelector<HTMLInputElement>(".header-search input[name=q]");
  if (input && input.value === "" && shown && !page) input.value = shown;

  const scope = parseScope(page?.dataset["searchScope"]);
  if (!page || !scope || query === "") return;
  load(storage);
  if (!("searchPaged" in page.dataset)) {
    searchActions.start(scope, query);
    if (page.dataset["searchRecent"] === "device") addDeviceRecent(localStorageOrNull(), query);
    save(storage);
  }
  page.addEventListener("click", (event) => {
    const link = (event.target as Element | null)?.closest<HTMLAnchorElement>("a.pin-link");
    const id = /^\/pin\/(\d+)\/$/.exec(link?.getAttribute("href") ?? "")?.[1];
    if (!id) return;
    searchActions.viewPin(scope, query, id);
    save(storage);
  });
}
