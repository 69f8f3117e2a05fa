// The owner's own profile: "Create board" (name up to 50 characters with a counter, description
// up to 500, privacy), and the archived boards, each with Unarchive. Archiving and unarchiving
// move boards between this list and the profile's boards (feed-lists.ts); the page's board
// grid is server-rendered, so an unarchive reloads it.
import { useEffect, useState } from "react";
import { watchProfileFreshness } from "~/saves/profile-freshness.client.ts";
import { ApiCallError } from "~/api/api.client.ts";
import { organizeApi } from "./api.client.ts";
import { refusalNotice } from "./board-store.ts";
import { BoardForm } from "./BoardForm.tsx";
import { Dialog } from "~/ui/Dialog.tsx";
import { archiveBoard, feedKey, listFetchSucceeded, unarchiveBoard, type FeedItem, type FeedLists } from "./feed-lists.ts";
import { fieldProblems } from "./field-problems.ts";
import type { ArchivedBoard } from "./organize.server.ts";
import { fill, type OrganizeStrings } from "./strings.ts";
import { showToast } from "~/shell/toast-event.ts";
import { noticeText } from "./toast.ts";
import { useHydrated } from "./hydrated.ts";

export interface ProfileOrganizerProps {
  strings: OrganizeStrings;
  ownerId: string;
  archived: ArchivedBoard[];
}

interface BoardItem extends FeedItem {
  type: "board";
  name: string;
  url: string;
}

export default function ProfileOrganizer({ strings, ownerId, archived }: ProfileOrganizerProps) {
  const s = strings.text;
  const [creating, setCreating] = useState(false);
  const ARCHIVED = feedKey("archivedboards", ownerId);
  const [lists, setLists] = useState<FeedLists<BoardItem>>(() =>
    listFetchSucceeded({}, ARCHIVED, { items: archived.map((board) => ({ id: board.id, type: "board", name: board.name, url: board.url })), bookmark: null }, true),
  );
  const items = lists[ARCHIVED]?.items ?? [];
  const hydrated = useHydrated();
  // The owner's profile pins after a save elsewhere: this render is the refresh (spec 001 §4).
  useEffect(() => watchProfileFreshness(), []);

  async function unarchive(board: BoardItem) {
    const before = lists;
    setLists(unarchiveBoard(lists, ownerId, board));
    try {
      await organizeApi.updateBoard({ board_id: board.id, archived: false });
      showToast({ id: "organize-unarchived", message: s["toast.unarchived"] });
      location.reload();
    } catch (error) {
      setLists(archiveBoard(before, ownerId, board));
      showToast({ id: "organize-unarchived", message: noticeText(strings, refusalNotice(error)) });
    }
  }

  return (
    <div className="organize organize-profile" data-ready={hydrated}>
      <fieldset className="organize-frame" disabled={!hydrated}>
      <div className="organize-toolbar">
        <button type="button" className="button primary" onClick={() => setCreating(true)}>
          {s["form.create"]}
        </button>
      </div>
      <Dialog className="organize-dialog" open={creating} title={s["form.createTitle"]} closeLabel={s.close} onClose={() => setCreating(false)}>
        <BoardForm
          strings={strings}
          initial={{ name: "", description: "", privacy: "public", coverPinId: null }}
          submitLabel={s["form.createSubmit"]}
          onCancel={() => setCreating(false)}
          onSubmit={async (values) => {
            try {
              const board = await organizeApi.createBoard({ name: values.name, description: values.description, privacy: values.privacy });
              setCreating(false);
              location.assign(board.url);
              return undefined;
            } catch (error) {
              if (error instanceof ApiCallError && error.httpStatus === 400) return fieldProblems(error);
              showToast({ id: "organize-create", message: noticeText(strings, refusalNotice(error)) });
              return undefined;
            }
          }}
        />
      </Dialog>
      {items.length > 0 && (
        <section className="organize-archived" aria-labelledby="archived-heading">
          <h2 id="archived-heading">{s["archived.heading"]}</h2>
          <p>{s["archived.explain"]}</p>
          <ul className="organize-archived-list">
            {items.map((board) => (
              <li key={board.id}>
                <a href={board.url} dir="auto">
                  {board.name}
                </a>
                <button type="button" className="button" aria-label={fill(s["archived.unarchiveBoard"], { name: board.name })} onClick={() => void unarchive(board)}>
                  {s["archived.unarchive"]}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      </fieldset>
    </div>
  );
}
