// The board page's management island, for signed-in viewers only (signed-out and crawler HTML
// has no island): the board's actions by role (edit, select pins, collaborators, archive,
// delete), its sections, the invitee's accept/decline and a stranger's request to join. Only
// controls the role allows are shown (policy.ts `allows`); the server checks every call anyway.
import { useStore } from "@nanostores/react";
import { useEffect, useMemo, useState } from "react";
import { ApiCallError } from "~/api/api.client.ts";
import { allows, type BoardRole } from "./policy.ts";
import { organizeApi } from "./api.client.ts";
import type { BoardState } from "./board-state.ts";
import { createBoardStore, refusalNotice, type PinItem } from "./board-store.ts";
import { BoardForm } from "./BoardForm.tsx";
import { CollaboratorsDialog } from "./CollaboratorsDialog.tsx";
import { Dialog } from "~/ui/Dialog.tsx";
import { ConfirmActions } from "./ConfirmActions.tsx";
import type { ViewerRecord } from "./organize.server.ts";
import { SectionsPanel } from "./SectionsPanel.tsx";
import { SelectPanel } from "./SelectPanel.tsx";
import { fieldProblems } from "./field-problems.ts";
import { useHydrated } from "./hydrated.ts";
import { fill, type OrganizeStrings } from "./strings.ts";
import { showToast } from "~/shell/toast-event.ts";
import { noticeText, notifier } from "./toast.ts";

export interface BoardOrganizerProps {
  strings: OrganizeStrings;
  board: BoardState;
  boardUrl: string;
  ownerUrl: string;
  viewerId: string;
  role: BoardRole;
  record: ViewerRecord | null;
  isPublic: boolean;
  pins: PinItem[];
  bookmark: string | null;
}

type Open = "edit" | "delete" | "collaborators" | null;

const SELECTING = "organize-selecting";
const clock = () => Date.now();

export default function BoardOrganizer(props: BoardOrganizerProps) {
  const { strings, viewerId, isPublic } = props;
  const s = strings.text;
  const store = useMemo(
    () => createBoardStore({ board: props.board, pins: props.pins, bookmark: props.bookmark }, { api: organizeApi, notify: notifier(strings), now: clock }),
    // The store lives as long as the page: later prop changes never happen (islands get props once).
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  const board = useStore(store.$board);
  const [role, setRole] = useState<BoardRole>(props.role);
  const [record, setRecord] = useState<ViewerRecord | null>(props.record);
  const [open, setOpen] = useState<Open>(null);
  const [selecting, setSelecting] = useState(false);
  const hydrated = useHydrated();

  // The board's server state (pending transfer, archive time) may be newer than the page's.
  useEffect(() => {
    if (role !== "owner") return;
    organizeApi.board(board.id).then(
      (json) => store.$board.set({ ...store.$board.get(), archived_by_me_at: json.archived_by_me_at, pending_ownership_transfer: json.pending_ownership_transfer }),
      () => undefined,
    );
  }, [role, board.id, store]);

  // Select mode replaces the server-rendered grid; leaving it after a change reloads that grid.
  useEffect(() => {
    document.documentElement.classList.toggle(SELECTING, selecting);
    return () => document.documentElement.classList.remove(SELECTING);
  }, [selecting]);

  function finishSelecting() {
    setSelecting(false);
    store.clearSelection();
    if (store.$dirty.get()) location.reload();
    // Back to the button that opened select mode.
    else requestAnimationFrame(() => document.querySelector<HTMLButtonElement>("[data-organize-select]")?.focus());
  }

  async function answerInvite(accept: boolean) {
    try {
      if (accept) await organizeApi.answer(board.id, viewerId, "accept");
      else await organizeApi.removeCollaborator(board.id, viewerId);
      setRecord(accept ? { ...record!, status: "accepted" } : null);
      // The invite's access is write and delete (spec 001 §6), so the viewer may now do both.
      if (accept) setRole("collaborator_delete");
      showToast({ id: "organize-invite", message: accept ? s["toast.joined"] : s["toast.declined"] });
    } catch (error) {
      showToast({ id: "organize-invite", message: noticeText(strings, refusalNotice(error)) });
    }
  }

  async function requestToJoin() {
    try {
      await organizeApi.requestToJoin(board.id);
      setRecord({ status: "new", type: "request", invitedBy: null });
      showToast({ id: "organize-join", message: s["toast.requested"] });
    } catch (error) {
      showToast({ id: "organize-join", message: noticeText(strings, refusalNotice(error)) });
    }
  }

  const invited = record?.status === "new" && record.type === "invite";
  const canSeeCollaborators = allows(role, "list_collaborators");
  const manageSections = allows(role, "create_section") || allows(role, "rename_section") || allows(role, "reorder_sections") || allows(role, "delete_section");
  const anyTool = allows(role, "edit_board") || allows(role, "save_pin") || canSeeCollaborators;

  return (
    <div className="organize" data-ready={hydrated}>
      {/* Until the code has arrived, the controls are inert rather than silently ignoring a click. */}
      <fieldset className="organize-frame" disabled={!hydrated}>
      {invited && (
        <div className="organize-banner" role="region" aria-label={s["invite.accept"]}>
          <p>{fill(s["invite.banner"], { name: record.invitedBy ?? "" })}</p>
          <button type="button" className="button primary" onClick={() => void answerInvite(true)}>
            {s["invite.accept"]}
          </button>
          <button type="button" className="button" onClick={() => void answerInvite(false)}>
            {s["invite.decline"]}
          </button>
        </div>
      )}
      {!invited && isPublic && allows(role, "request_to_join") && (
        <div className="organize-banner">
          {record?.type === "request" ? (
            <p role="status">{s["invite.requested"]}</p>
          ) : (
            <button type="button" className="button" onClick={() => void requestToJoin()}>
              {s["invite.join"]}
            </button>
          )}
        </div>
      )}
      {board.archived_by_me_at !== null && <p className="organize-badge">{s["board.archivedBadge"]}</p>}
      {anyTool && (
        <div className="organize-toolbar" role="toolbar" aria-label={s["board.actions"]}>
          {allows(role, "edit_board") && (
            <button type="button" className="button" onClick={() => setOpen("edit")}>
              {s["board.edit"]}
            </button>
          )}
          {allows(role, "save_pin") && !selecting && (
            <button type="button" className="button" data-organize-select onClick={() => setSelecting(true)}>
              {s["board.select"]}
            </button>
          )}
          {canSeeCollaborators && (
            <button type="button" className="button" onClick={() => setOpen("collaborators")}>
              {s["board.collaborators"]}
            </button>
          )}
          {allows(role, "archive_board") && (
            <button type="button" className="button" onClick={() => void store.setArchived(board.archived_by_me_at === null)}>
              {board.archived_by_me_at === null ? s["board.archive"] : s["board.unarchive"]}
            </button>
          )}
          {allows(role, "delete_board") && (
            <button type="button" className="button" onClick={() => setOpen("delete")}>
              {s["board.delete"]}
            </button>
          )}
        </div>
      )}
      {manageSections && <SectionsPanel store={store} strings={strings} role={role} boardUrl={props.boardUrl} />}
      {selecting && <SelectPanel store={store} strings={strings} role={role} onDone={finishSelecting} />}

      <Dialog className="organize-dialog" open={open === "edit"} title={s["form.editTitle"]} closeLabel={s.close} onClose={() => setOpen(null)}>
        <BoardForm
          strings={strings}
          initial={{ name: board.name, description: board.description, privacy: board.privacy, coverPinId: board.cover_pin_id }}
          submitLabel={s["form.save"]}
          coverChoices={store.pins().slice(0, 50).map((pin) => ({ id: pin.id, title: pin.title }))}
          onCancel={() => setOpen(null)}
          onSubmit={async (values) => {
            try {
              const json = await organizeApi.updateBoard({
                board_id: board.id,
                name: values.name,
                description: values.description,
                privacy: values.privacy,
                cover_pin_id: values.coverPinId,
              });
              setOpen(null);
              showToast({ id: "organize-saved", message: s["toast.saved"] });
              // A new name may mean a new slug: the page at the board's (possibly new) address shows it.
              location.assign(json.url || props.boardUrl);
              return undefined;
            } catch (error) {
              if (error instanceof ApiCallError && error.httpStatus === 400) return fieldProblems(error);
              showToast({ id: "organize-saved", message: noticeText(strings, refusalNotice(error)) });
              return undefined;
            }
          }}
        />
      </Dialog>

      <Dialog className="organize-dialog" open={open === "delete"} title={s["delete.title"]} closeLabel={s.close} role="alertdialog" onClose={() => setOpen(null)}>
        <p>{fill(s["delete.body"], { name: board.name })}</p>
        <ConfirmActions
          cancelLabel={s.cancel}
          confirmLabel={s["delete.confirm"]}
          onCancel={() => setOpen(null)}
          onConfirm={() =>
              void store.remove().then((done) => {
                setOpen(null);
                if (done) location.assign(props.ownerUrl);
              })}
        />
      </Dialog>

      {canSeeCollaborators && (
        <CollaboratorsDialog
          open={open === "collaborators"}
          onClose={() => setOpen(null)}
          store={store}
          strings={strings}
          role={role}
          viewerId={viewerId}
          onLeft={() => location.reload()}
        />
      )}
      </fieldset>
    </div>
  );
}
