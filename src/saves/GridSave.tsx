// One save island per pin grid (never one per cell): the grid's server HTML carries a plain
// Save button in each cell, and this island listens for clicks on the whole grid, keeps every
// button's label in step with the shared save state, adds the button to cells the feed pager
// appends, and owns the one board picker the grid needs. The buttons stay hidden until it has
// hydrated (data-save-ready on the grid), so no click is ever lost to a button without script.
import { useCallback, useEffect, useState } from "react";
import BoardPicker from "./BoardPicker.tsx";
import { saving } from "./saving.client.ts";
import { $saves, pinSave } from "./store.ts";
import type { SaveStrings } from "./strings.ts";
import "./save.css";
import { perViewer } from "~/member-page/viewer-values.ts";
import { pageStrings } from "~/i18n/page-strings.ts";

interface GridSaveProps {
  /** The id of the grid's <ul>. */
  gridId: string;
  /** Given, or the page's copy (src/i18n/page-strings.ts). */
  strings?: SaveStrings;
  /** The page's locale (the server's table for it). */
  locale: string;
  quickSave: boolean;
  profileUrl: string;
}

const PIN_HREF = /^\/pin\/(\d{1,18})\/$/;

/** The pin id of a grid cell, read from its link. */
function pinIdOf(cell: Element): string | null {
  const href = cell.querySelector("a.pin-link")?.getAttribute("href") ?? "";
  return PIN_HREF.exec(href)?.[1] ?? null;
}

function GridSave(props: GridSaveProps) {
  const { gridId, quickSave, profileUrl, locale } = props;
  const strings = props.strings ?? pageStrings("save", locale);
  const [pinId, setPinId] = useState<string | null>(null);
  const [opener, setOpener] = useState<HTMLElement | null>(null);

  useEffect(() => {
    const grid = document.getElementById(gridId);
    if (!grid) return;
    const buttons = () => grid.querySelectorAll<HTMLButtonElement>("button.pin-save[data-pin-id]");

    const paint = () => {
      const saves = $saves.get();
      for (const button of buttons()) {
        const state = saves[button.dataset["pinId"]!];
        const saved = Boolean(state?.savedInfo);
        const label = saved ? strings.saved : strings.save;
        if (button.textContent !== label) button.textContent = label;
        button.setAttribute("aria-pressed", String(saved));
        button.classList.toggle("is-saved", saved);
        // aria-disabled, not disabled: a disabled button drops keyboard focus, and focus sits
        // here right after the picker closes. Clicks while busy are ignored below.
        button.setAttribute("aria-disabled", String(Boolean(state?.pending)));
        if (saved && state?.savedInfo) button.title = `${strings.savedToLabel} ${state.savedInfo.title}`;
        else button.removeAttribute("title");
      }
    };

    // Cells the feed pager appends arrive without a button: give them one.
    const equip = () => {
      for (const cell of grid.querySelectorAll(":scope > li.pin-cell")) {
        if (cell.querySelector("button.pin-save")) continue;
        const id = pinIdOf(cell);
        if (!id) continue;
        const button = document.createElement("button");
        button.type = "button";
        button.className = "pin-save";
        button.dataset["pinId"] = id;
        cell.appendChild(button);
      }
      paint();
    };

    const click = (event: MouseEvent) => {
      const button = (event.target as Element | null)?.closest<HTMLButtonElement>("button.pin-save[data-pin-id]");
      if (!button || !grid.contains(button)) return;
      event.preventDefault();
      const id = button.dataset["pinId"]!;
      const state = pinSave(id);
      if (state.pending) return;
      const info = state.savedInfo;
      if (info) void saving().unsave(id, info.type === "board" ? info.boardId : null, info.title, strings);
      else if (quickSave) void saving().save(id, { kind: "profile", title: strings.profile, url: profileUrl }, strings);
      else {
        setOpener(button);
        setPinId(id);
      }
    };

    equip();
    const observer = new MutationObserver(equip);
    observer.observe(grid, { childList: true });
    const unsubscribe = $saves.listen(paint);
    grid.addEventListener("click", click);
    grid.dataset["saveReady"] = "";
    return () => {
      observer.disconnect();
      unsubscribe();
      grid.removeEventListener("click", click);
      delete grid.dataset["saveReady"];
    };
  }, [gridId, strings, quickSave, profileUrl]);

  const close = useCallback(() => setPinId(null), []);
  return <BoardPicker pinId={pinId} strings={strings} saving={saving()} onClose={close} returnFocus={opener} />;
}

/** The island as pages mount it: on a member page, its slot's values over its props. */
export default perViewer(GridSave);
