// A board's collaborators: the owner invites by username, answers requests to join (approve,
// deny), removes people and offers ownership to an accepted collaborator (or cancels the
// offer); a collaborator sees who else is on the board and may leave. Statuses move by the
// social reducer (src/social/collaborators.ts); the server decides what is allowed.
import { useStore } from "@nanostores/react";
import { useEffect, useId, useState, type FormEvent } from "react";
import { ApiCallError } from "~/api/api.client.ts";
import { allows, type BoardRole } from "./policy.ts";
import { collaborationReducer, type CollaborationEvent, type CollaborationState } from "~/social/collaborators.ts";
import { organizeApi, type CollaboratorJson } from "./api.client.ts";
import { refusalNotice, type BoardStore } from "./board-store.ts";
import { Dialog } from "~/ui/Dialog.tsx";
import { ConfirmActions } from "./ConfirmActions.tsx";
import { fill, type OrganizeStrings } from "./strings.ts";
import { showToast } from "~/shell/toast-event.ts";
import { noticeText } from "./toast.ts";

interface Props {
  open: boolean;
  onClose: () => void;
  store: BoardStore;
  strings: OrganizeStrings;
  role: BoardRole;
  viewerId: string;
  /** The viewer left the board. */
  onLeft: () => void;
}

type Users = Record<string, CollaboratorJson["user"]>;

function stateFrom(viewerId: string, results: CollaboratorJson[]): CollaborationState {
  const records: CollaborationState["records"] = {};
  for (const item of results) records[item.user.id] = { user_id: item.user.id, status: item.status, type: item.type, access: item.access };
  const mine = records[viewerId];
  return {
    viewer_id: viewerId,
    collaborator_count: results.filter((item) => item.status === "accepted").length,
    is_collaborative: results.some((item) => item.status === "accepted"),
    collaborated_by_me: mine?.status === "accepted",
    access: mine?.status === "accepted" ? mine.access : [],
    records,
  };
}

export function CollaboratorsDialog({ open, onClose, store, strings, role, viewerId, onLeft }: Props) {
  const s = strings.text;
  const id = useId();
  const [state, setState] = useState<CollaborationState | null>(null);
  const [users, setUsers] = useState<Users>({});
  const [failed, setFailed] = useState(false);
  const [username, setUsername] = useState("");
  const [message, setMessage] = useState("");
  const [confirmLeave, setConfirmLeave] = useState(false);
  const board = useStore(store.$board);
  const boardId = board.id;
  const pending = board.pending_ownership_transfer;
  const isOwner = role === "owner";

  useEffect(() => {
    if (!open) return;
    let live = true;
    organizeApi.collaborators(boardId).then(
      (answer) => {
        if (!live) return;
        setUsers(Object.fromEntries(answer.results.map((item) => [item.user.id, item.user])));
        setState(stateFrom(viewerId, answer.results));
        setFailed(false);
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [open, boardId, viewerId]);

  /** Applies a transition, runs the call, and puts the state back with a toast if refused. */
  async function change(event: CollaborationEvent, run: () => Promise<unknown>): Promise<boolean> {
    if (!state) return false;
    const before = state;
    setState(collaborationReducer(state, event));
    try {
      await run();
      return true;
    } catch (error) {
      setState(before);
      showToast({ id: "organize-collab", message: noticeText(strings, refusalNotice(error)) });
      return false;
    }
  }

  async function invite(event: FormEvent) {
    event.preventDefault();
    const name = username.trim().replace(/^@/, "");
    if (!name) return;
    setMessage("");
    let user: CollaboratorJson["user"];
    try {
      user = await organizeApi.lookupUser(name);
    } catch (error) {
      setMessage(error instanceof ApiCallError && (error.httpStatus === 404 || error.httpStatus === 400) ? fill(s["collab.unknownUser"], { username: name }) : noticeText(strings, refusalNotice(error)));
      return;
    }
    if (state && state.records[user.id]) {
      setMessage(fill(s["collab.skipped"], { username: user.username }));
      return;
    }
    setUsers({ ...users, [user.id]: user });
    let skipped = false;
    const done = await change({ type: "add", user_ids: [user.id], status: "new" }, async () => {
      const answer = await organizeApi.invite(boardId, [user.id]);
      skipped = answer.skipped.includes(user.id);
    });
    if (done) {
      setUsername("");
      setMessage(fill(skipped ? s["collab.skipped"] : s["collab.invited"], { username: user.username }));
    }
  }

  const records = state ? Object.values(state.records) : [];
  const members = records.filter((record) => record.status === "accepted");
  const invited = records.filter((record) => record.status === "new" && record.type === "invite");
  const requests = records.filter((record) => record.status === "new" && record.type === "request");
  const who = (userId: string) => users[userId]?.username ?? userId;

  const row = (userId: string, buttons: React.ReactNode) => (
    <li key={userId} className="organize-person">
      <span dir="auto">{users[userId]?.full_name || who(userId)}</span>
      <span className="organize-person-handle" dir="ltr">
        @{who(userId)}
      </span>
      <span className="organize-person-tools">{buttons}</span>
    </li>
  );

  return (
      <Dialog className="organize-dialog" open={open} title={confirmLeave ? s["collab.leave"] : s["collab.heading"]} closeLabel={s.close} onClose={onClose}>
        {confirmLeave ? (
          <>
            <p>{s["collab.leaveConfirm"]}</p>
            <ConfirmActions
              cancelLabel={s.cancel}
              confirmLabel={s["collab.leave"]}
              onCancel={() => setConfirmLeave(false)}
              onConfirm={() =>
                  void change({ type: "remove", user_id: viewerId }, () => organizeApi.removeCollaborator(boardId, viewerId)).then((left) => {
                    setConfirmLeave(false);
                    if (left) {
                      showToast({ id: "organize-left", message: s["toast.left"] });
                      onLeft();
                    }
                  })}
            />
          </>
        ) : failed ? (
          <p role="alert">{s["collab.loadFailed"]}</p>
        ) : !state ? (
          <p role="status">{s["collab.loading"]}</p>
        ) : (
          <>
            {allows(role, "invite_collaborator") && (
              <form className="organize-inline-form" onSubmit={(event) => void invite(event)}>
                <label htmlFor={`${id}-invite`}>{s["collab.inviteLabel"]}</label>
                <input id={`${id}-invite`} type="text" dir="ltr" autoComplete="off" spellCheck={false} value={username} onChange={(event) => setUsername(event.currentTarget.value)} />
                <button type="submit" className="button primary">
                  {s["collab.invite"]}
                </button>
              </form>
            )}
            <p className="organize-status" role="status" aria-live="polite">
              {message}
            </p>
            {pending && isOwner && (
              <p className="organize-transfer">
                {fill(s["collab.transferPending"], { username: pending.username })}{" "}
                <button type="button" className="button" onClick={() => void store.cancelTransfer()}>
                  {s["collab.transferCancel"]}
                </button>
              </p>
            )}
            <h3>{s["collab.members"]}</h3>
            {members.length === 0 ? (
              <p>{s["collab.none"]}</p>
            ) : (
              <ul className="organize-people">
                {members.map((record) =>
                  row(
                    record.user_id,
                    <>
                      {allows(role, "transfer_ownership") && !pending && (
                        <button type="button" className="button" onClick={() => void store.requestTransfer({ user_id: record.user_id, username: who(record.user_id) })}>
                          {fill(s["collab.transfer"], { username: who(record.user_id) })}
                        </button>
                      )}
                      {allows(role, "remove_collaborator") && (
                        <button type="button" className="button" aria-label={fill(s["collab.removeUser"], { username: who(record.user_id) })} onClick={() => void change({ type: "remove", user_id: record.user_id }, () => organizeApi.removeCollaborator(boardId, record.user_id))}>
                          {s["collab.remove"]}
                        </button>
                      )}
                    </>,
                  ),
                )}
              </ul>
            )}
            {isOwner && invited.length > 0 && (
              <>
                <h3>{s["collab.pending"]}</h3>
                <ul className="organize-people">
                  {invited.map((record) =>
                    row(
                      record.user_id,
                      <button type="button" className="button" aria-label={fill(s["collab.removeUser"], { username: who(record.user_id) })} onClick={() => void change({ type: "remove", user_id: record.user_id }, () => organizeApi.removeCollaborator(boardId, record.user_id))}>
                        {s["collab.remove"]}
                      </button>,
                    ),
                  )}
                </ul>
              </>
            )}
            {allows(role, "answer_join_request") && requests.length > 0 && (
              <>
                <h3>{s["collab.requests"]}</h3>
                <ul className="organize-people">
                  {requests.map((record) =>
                    row(
                      record.user_id,
                      <>
                        <button type="button" className="button primary" aria-label={fill(s["collab.approveUser"], { username: who(record.user_id) })} onClick={() => void change({ type: "approve", user_id: record.user_id }, () => organizeApi.answer(boardId, record.user_id, "approve"))}>
                          {s["collab.approve"]}
                        </button>
                        <button type="button" className="button" aria-label={fill(s["collab.denyUser"], { username: who(record.user_id) })} onClick={() => void change({ type: "deny", user_id: record.user_id }, () => organizeApi.answer(boardId, record.user_id, "deny"))}>
                          {s["collab.deny"]}
                        </button>
                      </>,
                    ),
                  )}
                </ul>
              </>
            )}
            {allows(role, "leave_board") && (
              <button type="button" className="button" onClick={() => setConfirmLeave(true)}>
                {s["collab.leave"]}
              </button>
            )}
          </>
        )}
      </Dialog>
  );
}
