// The search landing's recent searches: links to run one again, a button to remove one and
// one to clear them all. Signed in, the list comes from the server (UserRecentSearchesResource);
// signed out, from this device (localStorage). Without script the server's links still work.
import { useEffect, useState, useSyncExternalStore } from "react";
import { useStore } from "@nanostores/react";
import { searchUrl, type Scope } from "./query-text.ts";
import { searchApi } from "./api.client.ts";
import { $deviceRecent, clearDeviceRecent, loadDeviceRecent, localStorageOrNull, removeDeviceRecent } from "./device-recent.client.ts";
import { searchActions } from "./state.ts";

interface RecentSearchesStrings {
  heading: string;
  empty: string;
  remove: string;
  clearAll: string;
}

export interface RecentSearchesProps {
  scope: Scope;
  signedIn: boolean;
  initial: string[];
  strings: RecentSearchesStrings;
}

const fill = (template: string, query: string) => template.replace("{{query}}", query);
const noSubscription = () => () => {};

/** False on the server and while hydrating, true once the island runs (buttons need script). */
export const useHydrated = (): boolean => useSyncExternalStore(noSubscription, () => true, () => false);

export default function RecentSearches({ scope, signedIn, initial, strings }: RecentSearchesProps) {
  const [serverList, setList] = useState<string[]>(initial);
  const deviceList = useStore($deviceRecent);
  const hydrated = useHydrated();
  const list = signedIn ? serverList : deviceList;

  useEffect(() => {
    if (!signedIn) loadDeviceRecent(localStorageOrNull());
  }, [signedIn]);

  useEffect(() => {
    searchActions.setRecent(list);
  }, [list]);

  async function remove(query: string) {
    if (!signedIn) {
      removeDeviceRecent(localStorageOrNull(), query);
      return;
    }
    const before = serverList;
    setList(serverList.filter((item) => item !== query));
    try {
      await searchApi().removeRecent(query);
    } catch {
      setList(before);
    }
  }

  async function clear() {
    if (!signedIn) {
      clearDeviceRecent(localStorageOrNull());
      return;
    }
    const before = serverList;
    setList([]);
    try {
      await searchApi().clearRecent();
    } catch {
      setList(before);
    }
  }

  return (
    <section className="search-recent" aria-labelledby="search-recent-heading" data-hydrated={hydrated ? "true" : undefined}>
      <div className="search-section-head">
        <h2 id="search-recent-heading">{strings.heading}</h2>
        {hydrated && list.length > 0 && (
          <button type="button" className="button" onClick={() => void clear()}>
            {strings.clearAll}
          </button>
        )}
      </div>
      {list.length === 0 ? (
        <p className="search-hint">{strings.empty}</p>
      ) : (
        <ul className="search-recent-list">
          {list.map((query) => (
            <li key={query}>
              <a className="chip" dir="auto" href={searchUrl(scope, query, { rs: "recent" })}>
                {query}
              </a>
              {hydrated && (
                <button type="button" className="chip-remove" aria-label={fill(strings.remove, query)} onClick={() => void remove(query)}>
                  <span aria-hidden="true">×</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
