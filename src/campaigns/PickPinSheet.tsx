// The pick-a-pin sheet (spec 002 §2): sources pins, product groups, boards, selected and search
// results; list types RECENT and PROMOTED. Each list is one call to the account's sheet endpoint;
// a board opens onto its pins. Choosing a pin or a product group hands it to the form's store.
import { useEffect, useId, useState, type FormEvent } from "react";
import { call } from "~/api/api.client.ts";
import { fill } from "~/saves/strings.ts";
import type { PinChoice, ProductGroupChoice } from "./quick-promote-store.ts";
import { word, type PromoteStrings } from "./promote-strings.ts";
import { LIST_TYPES, PIN_SOURCES } from "./quick-promote.ts";

type Source = (typeof PIN_SOURCES)[number];
type ListType = (typeof LIST_TYPES)[number];

interface Item {
  type: "pin" | "product_group" | "board";
  id: string;
  title: string;
  kind: string | null;
  image_url: string | null;
  image_signature: string | null;
  link: string | null;
}

interface SheetProps {
  strings: PromoteStrings;
  advertiserId: string;
  /** The chosen pin and the recently chosen ones, newest first, comma-separated: the "selected" source. */
  selectedIds: string;
  onPin: (pin: PinChoice) => void;
  onProductGroup: (group: ProductGroupChoice) => void;
}

export function PickPinSheet({ strings, advertiserId, selectedIds, onPin, onProductGroup }: SheetProps) {
  const id = useId();
  const s = (path: string) => word(strings.promote, `sheet.${path}`);
  const [source, setSource] = useState<Source>(selectedIds !== "" ? "SELECTED" : "PINS");
  const [listType, setListType] = useState<ListType>("RECENT");
  const [board, setBoard] = useState<{ id: string; title: string } | null>(null);
  const [term, setTerm] = useState("");
  const [searched, setSearched] = useState("");
  const [loaded, setLoaded] = useState<{ path: string; items: Item[] | null } | null>(null);

  // The list's call, or null when there is nothing to ask (no search words, nothing selected).
  let path: string | null = null;
  const params = new URLSearchParams({ source, list_type: listType });
  if (source === "BOARDS" && board) params.set("board_id", board.id);
  if (source === "SEARCH_RESULTS") params.set("search_term", searched);
  if (source === "SELECTED") params.set("pin_ids", selectedIds);
  if (!(source === "SEARCH_RESULTS" && searched === "") && !(source === "SELECTED" && selectedIds === "")) path = `/v3/ad_accounts/${advertiserId}/quick_promote/pins/?${params.toString()}`;

  useEffect(() => {
    if (path === null) return;
    let live = true;
    call<{ items: Item[] }>(path)
      .then((answer) => {
        if (live) setLoaded({ path, items: answer.items });
      })
      .catch(() => {
        if (live) setLoaded({ path, items: null });
      });
    return () => {
      live = false;
    };
  }, [path]);
  // Empty when nothing is asked; loading until this call's answer is in; failed when it came back without items.
  const items: Item[] | null = path === null ? [] : loaded?.path === path ? loaded.items : null;
  const failed = path !== null && loaded?.path === path && loaded.items === null;

  function search(event: FormEvent) {
    event.preventDefault();
    setSearched(term.trim());
  }

  function choose(item: Item) {
    if (item.type === "board") setBoard({ id: item.id, title: item.title });
    else if (item.type === "product_group") onProductGroup({ id: item.id, name: item.title });
    else onPin({ id: item.id, kind: item.kind ?? "image", title: item.title, imageUrl: item.image_url, imageSignature: item.image_signature ?? item.id, link: item.link });
  }

  return (
    <div className="promote-sheet">
      <div className="promote-tabs" role="group" aria-label={s("sourcesLabel")}>
        {PIN_SOURCES.map((name) => (
          <button
            key={name}
            type="button"
            className="button"
            aria-pressed={source === name}
            onClick={() => {
              setSource(name);
              setBoard(null);
            }}
          >
            {s(`sources.${name}`)}
          </button>
        ))}
      </div>
      {source !== "SELECTED" && source !== "SEARCH_RESULTS" && (
        <div className="hub-field">
          <label htmlFor={`${id}-list`}>{s("listType")}</label>
          <select id={`${id}-list`} value={listType} onChange={(event) => setListType(event.currentTarget.value as ListType)}>
            {LIST_TYPES.map((type) => (
              <option key={type} value={type}>
                {s(`listTypes.${type}`)}
              </option>
            ))}
          </select>
        </div>
      )}
      {source === "SEARCH_RESULTS" && (
        <form className="hub-inline" role="search" onSubmit={search}>
          <div className="hub-field">
            <label htmlFor={`${id}-term`}>{s("search")}</label>
            <input id={`${id}-term`} type="search" maxLength={100} value={term} onChange={(event) => setTerm(event.currentTarget.value)} />
          </div>
          <button type="submit" className="button">
            {s("searchButton")}
          </button>
        </form>
      )}
      {source === "BOARDS" && board && (
        <p>
          <button type="button" className="button" onClick={() => setBoard(null)}>
            {s("back")}
          </button>{" "}
          <strong>{board.title}</strong>
        </p>
      )}
      <div aria-live="polite">
        {failed ? (
          <p className="hub-error">{s("failed")}</p>
        ) : items === null ? (
          <p>{s("loading")}</p>
        ) : items.length === 0 ? (
          <p>{s("empty")}</p>
        ) : (
          <ul className="promote-picks">
            {items.map((item) => (
              <li key={`${item.type}-${item.id}`}>
                <button type="button" className="promote-pick" onClick={() => choose(item)} aria-label={fill(s(item.type === "board" ? "open" : "select"), { name: item.title || item.id })}>
                  {item.image_url ? <img src={item.image_url} alt="" loading="lazy" width={118} /> : <span className="promote-pick-text" aria-hidden="true">{item.title}</span>}
                  <span className="promote-pick-title" aria-hidden="true">
                    {item.title}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
