// The header's search box: a GET form to /search/pins/ that works without script, enhanced
// (client:interaction) into the ARIA 1.2 combobox pattern with a listbox popup: role=combobox
// on the input, aria-expanded, aria-controls, aria-activedescendant (focus stays in the input);
// ArrowDown/ArrowUp move through the options (wrapping), Alt+ArrowDown opens, Enter runs the
// active option or submits, Escape closes then clears, Home/End jump to the first/last option
// while one is active, Shift+Delete removes an active recent search; the mouse works too.
// Suggestions come from AdvancedTypeaheadResource (debounced, cached by term in the typeahead
// store); recent searches from the server when signed in and from this device when not.
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { useStore } from "@nanostores/react";
import { searchUrl } from "./query-text.ts";
import type { TypeaheadItem, TypeaheadResponse } from "./types.ts";
import { searchApi, type SearchApi } from "./api.client.ts";
import { $deviceRecent, addDeviceRecent, clearDeviceRecent, loadDeviceRecent, localStorageOrNull, removeDeviceRecent } from "./device-recent.client.ts";
import { useHydrated } from "./RecentSearches.tsx";
import { matchingRecent, searchActions } from "./state.ts";
import { buildOptions, nextActive, type BoxOption } from "./combobox.ts";
import type { SearchBoxStrings } from "./search-box-strings.ts";
import { pageStrings } from "~/i18n/page-strings.ts";

export interface SearchBoxProps {
  action: string;
  initialQuery: string;
  signedIn: boolean;
  /** The page's locale: the box's words come from the page's strings block (src/i18n/page-strings.ts). */
  locale: string;
  /** Given instead, where the page has no block (a crawler's page renders the box without script). */
  strings?: SearchBoxStrings;
  /** Test seam: the calls (the browser's resource client by default). */
  api?: SearchApi;
}

const TYPEAHEAD_DEBOUNCE_MS = 150;
const TYPEAHEAD_MAX_AGE_MS = 60_000;
const MAX_TERM = 100;

const termOf = (text: string) => text.normalize("NFKC").replace(/\s+/gu, " ").trim().slice(0, MAX_TERM);

const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ""));

export default function SearchBox({ action, initialQuery, signedIn, locale, api, ...given }: SearchBoxProps) {
  const strings = given.strings ?? pageStrings("search", locale);
  const calls = useMemo(() => api ?? searchApi(), [api]);
  const [value, setValue] = useState(initialQuery);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [answer, setAnswer] = useState<TypeaheadResponse | null>(null);
  const device = useStore($deviceRecent);
  const hydrated = useHydrated();
  const inputRef = useRef<HTMLInputElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const latest = useRef(0);
  const id = useId().replace(/[^a-zA-Z0-9_-]/g, "");
  const listboxId = `search-listbox-${id}`;
  const optionId = (index: number) => `search-option-${id}-${index}`;

  useEffect(() => {
    if (!signedIn) loadDeviceRecent(localStorageOrNull());
  }, [signedIn]);

  // The input is uncontrolled: text typed before hydration, or the last search's text the
  // header script filled in, stays in it. The box reads it whenever the person acts.
  const sync = () => setValue(inputRef.current?.value ?? "");
  const write = (text: string) => {
    if (inputRef.current) inputRef.current.value = text;
    setValue(text);
  };

  const term = termOf(value);

  useEffect(() => {
    if (!open) return;
    if (searchActions.typeahead<TypeaheadResponse>(term, TYPEAHEAD_MAX_AGE_MS)) return;
    const ticket = ++latest.current;
    const timer = setTimeout(() => {
      calls.typeahead(term).then(
        (data) => {
          searchActions.cacheTypeahead(term, data);
          if (ticket === latest.current) setAnswer(data);
        },
        () => {
          if (ticket === latest.current) setAnswer({ term, recent_queries_tags: [], items: [] });
        },
      );
    }, TYPEAHEAD_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [open, term, calls]);

  // A cached answer for this term shows at once; otherwise the last answer for it, if any.
  const shown = (open ? searchActions.typeahead<TypeaheadResponse>(term, TYPEAHEAD_MAX_AGE_MS) : null) ?? (answer && answer.term === term ? answer : null);
  const recent = signedIn ? (shown?.recent_queries_tags ?? []).slice(0, 5) : matchingRecent(device, term, 5);
  const items: TypeaheadItem[] = shown?.items ?? [];
  const options = buildOptions(recent, items);
  const expanded = open && options.length > 0;
  const activeIndex = expanded && active < options.length ? active : -1;

  function close() {
    setOpen(false);
    setActive(-1);
  }

  function go(url: string) {
    close();
    window.location.assign(url);
  }

  function rememberOnDevice(query: string) {
    if (!signedIn && query.trim() !== "") addDeviceRecent(localStorageOrNull(), query);
  }

  function choose(option: BoxOption) {
    if (option.kind === "recent" || option.kind === "query") {
      write(option.query);
      rememberOnDevice(option.query);
      go(searchUrl("pins", option.query, { rs: option.kind === "recent" ? "recent" : "typeahead" }));
      return;
    }
    go(option.url);
  }

  async function removeRecent(query: string) {
    if (!signedIn) {
      removeDeviceRecent(localStorageOrNull(), query);
      return;
    }
    // Every cached answer may list it: they go, and the shown one loses it at once.
    searchActions.resetTypeahead();
    searchActions.forget(query);
    if (shown) setAnswer({ ...shown, recent_queries_tags: shown.recent_queries_tags.filter((item) => item !== query) });
    await calls.removeRecent(query).catch(() => undefined);
  }

  async function clearRecent() {
    if (!signedIn) {
      clearDeviceRecent(localStorageOrNull());
    } else {
      searchActions.resetTypeahead();
      searchActions.clearRecent();
      if (shown) setAnswer({ ...shown, recent_queries_tags: [] });
      await calls.clearRecent().catch(() => undefined);
    }
    inputRef.current?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (inputRef.current && inputRef.current.value !== value) sync();
    const count = options.length;
    switch (event.key) {
      case "ArrowDown":
      case "ArrowUp": {
        event.preventDefault();
        if (!open || event.altKey) {
          setOpen(true);
          if (!event.altKey && count > 0) setActive(event.key === "ArrowDown" ? 0 : count - 1);
          return;
        }
        setActive(nextActive(activeIndex, count, event.key === "ArrowDown" ? 1 : -1));
        return;
      }
      case "Home":
      case "End":
        if (activeIndex < 0) return;
        event.preventDefault();
        setActive(event.key === "Home" ? 0 : count - 1);
        return;
      case "Enter":
        if (activeIndex >= 0) {
          event.preventDefault();
          choose(options[activeIndex]!);
        }
        return;
      case "Escape":
        if (expanded) {
          event.preventDefault();
          close();
        } else if (value !== "") {
          event.preventDefault();
          write("");
        }
        return;
      case "Delete": {
        const option = activeIndex >= 0 ? options[activeIndex] : undefined;
        if (event.shiftKey && option?.kind === "recent") {
          event.preventDefault();
          void removeRecent(option.query);
          setActive(Math.min(activeIndex, count - 2));
        }
        return;
      }
      default:
    }
  }

  const countText = strings.counts[options.length] ?? "";
  const groups: Array<{ key: string; label: string; kinds: BoxOption["kind"][] }> = [
    { key: "recent", label: strings.recent, kinds: ["recent"] },
    { key: "queries", label: strings.queries, kinds: ["query"] },
    { key: "boards", label: strings.boards, kinds: ["board"] },
    { key: "people", label: strings.people, kinds: ["user"] },
  ];

  return (
    <div
      className="search-box"
      ref={rootRef}
      onBlur={(event) => {
        if (!rootRef.current?.contains(event.relatedTarget as Node | null)) close();
      }}
    >
      <form
        role="search"
        method="get"
        action={action}
        className="search-box-form"
        onSubmit={(event) => {
          // The field itself, not the state: a press held until hydration arrives before the
          // state has caught up with text typed while the island loaded.
          const typed = termOf(inputRef.current?.value ?? value);
          if (typed === "") {
            event.preventDefault();
            inputRef.current?.focus();
            return;
          }
          rememberOnDevice(typed);
          close();
        }}
      >
        <label htmlFor={`search-input-${id}`} className="visually-hidden">
          {strings.label}
        </label>
        <input
          ref={inputRef}
          id={`search-input-${id}`}
          className="search-box-input"
          // type=text: the Nu checker (and ARIA in HTML as it checks it) allows role=combobox
          // with aria-expanded on a text input; the keyboard still offers "search".
          type="text"
          inputMode="search"
          enterKeyHint="search"
          name="q"
          defaultValue={initialQuery}
          placeholder={strings.placeholder}
          autoComplete="off"
          spellCheck={false}
          maxLength={200}
          dir="auto"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listboxId}
          aria-activedescendant={activeIndex >= 0 ? optionId(activeIndex) : undefined}
          data-hydrated={hydrated ? "true" : undefined}
          onChange={(event) => {
            setValue(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => {
            sync();
            setOpen(true);
          }}
          onClick={() => {
            sync();
            setOpen(true);
          }}
          onKeyDown={onKeyDown}
        />
        <input type="hidden" name="rs" value="typed" />
        <button type="submit" className="search-box-submit">
          <svg className="search-box-submit-icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
            <circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" strokeWidth="2.5" />
            <path d="M15.5 15.5L21 21" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
          </svg>
          <span className="search-box-submit-text wide-label">{strings.submit}</span>
        </button>
      </form>
      <div className="search-box-popup" hidden={!expanded}>
        <ul role="listbox" id={listboxId} aria-label={strings.suggestions} className="search-box-listbox">
          {groups.map((group) => {
            const members = options.map((option, index) => ({ option, index })).filter(({ option }) => group.kinds.includes(option.kind));
            if (members.length === 0) return null;
            const headingId = `search-group-${id}-${group.key}`;
            return (
              <li role="presentation" key={group.key}>
                <ul role="group" aria-labelledby={headingId} className="search-box-group">
                  <li role="presentation" id={headingId} className="search-box-group-label">
                    {group.label}
                  </li>
                  {members.map(({ option, index }) => (
                    <li
                      key={`${option.kind}:${option.key}`}
                      id={optionId(index)}
                      role="option"
                      aria-selected={index === activeIndex}
                      className={index === activeIndex ? "search-box-option active" : "search-box-option"}
                      onMouseDown={(event) => event.preventDefault()}
                      onMouseMove={() => setActive(index)}
                      onClick={() => choose(option)}
                    >
                      <span dir="auto" className="search-box-option-text">
                        {option.kind === "board" ? option.name : option.kind === "user" ? option.fullName || option.username : option.query}
                      </span>
                      {option.kind === "board" && <span className="search-box-option-meta">{fill(strings.byOwner, { name: option.owner })}</span>}
                      {option.kind === "user" && <span className="search-box-option-meta" dir="ltr">@{option.username}</span>}
                      {option.kind === "recent" && (
                        <button
                          type="button"
                          tabIndex={-1}
                          className="search-box-remove"
                          aria-label={fill(strings.remove, { query: option.query })}
                          onClick={(event) => {
                            event.stopPropagation();
                            void removeRecent(option.query);
                          }}
                        >
                          <span aria-hidden="true">×</span>
                        </button>
                      )}
                    </li>
                  ))}
                </ul>
              </li>
            );
          })}
        </ul>
        {recent.length > 0 && (
          <button type="button" className="button search-box-clear" onMouseDown={(event) => event.preventDefault()} onClick={() => void clearRecent()}>
            {strings.clearAll}
          </button>
        )}
      </div>
      {/* A polite live region, not role=status: the page's own status messages stay the only "status". */}
      <div aria-live="polite" aria-atomic="true" className="visually-hidden">
        {open && shown ? countText : ""}
      </div>
    </div>
  );
}
