// What an item says and where it leads, in the reader's language: the resource answers it with
// each item, and the /news/ page renders the same, so the dropdown and the page never differ.
// The text is plain (people's names and comment text are shown as text, never as markup).
import type { NewsItem } from "./news.ts";

type Translate = (key: string, values?: Record<string, string>) => string;

/** The sentence for one item. */
export function newsText(item: Pick<NewsItem, "type" | "actor" | "board" | "comment">, t: Translate): string {
  const actor = item.actor ? item.actor.full_name || item.actor.username : t("news:item.someone");
  const board = item.board?.name ?? "";
  const comment = item.comment?.text ?? "";
  switch (item.type) {
    case "save":
      return board ? t("news:item.saveToBoard", { actor, board }) : t("news:item.save", { actor });
    case "follow":
      return board ? t("news:item.followBoard", { actor, board }) : t("news:item.follow", { actor });
    case "comment":
      return t("news:item.comment", { actor, comment });
    case "reply":
      return t("news:item.reply", { actor, comment });
    case "mention":
      // A mention without a comment is a story pin's mention sticker (record.server.ts storyMentionNews).
      return item.comment ? t("news:item.mention", { actor, comment }) : t("news:item.storyMention", { actor });
    case "board_invite":
      return board ? t("news:item.invite", { actor, board }) : t("news:item.inviteUnnamed", { actor });
    case "scheduled_pin":
      return t("news:item.scheduledPin");
    case "join_request":
      return board ? t("news:item.joinRequest", { actor, board }) : t("news:item.joinRequestUnnamed", { actor });
    case "did_it":
      return t("news:item.didIt", { actor });
    case "board_copy":
      return board ? t("news:item.boardCopy", { actor, board }) : t("news:item.boardCopyUnnamed", { actor });
  }
}

/** Where the item leads: the pin, else the board, else the person; null when none may be opened. */
export function newsUrl(item: Pick<NewsItem, "type" | "actor" | "board" | "pin">): string | null {
  if (item.pin) return `/pin/${item.pin.id}/`;
  if (item.board?.url) return item.board.url;
  if (item.type === "follow" && item.actor) return `/${item.actor.username}/`;
  return null;
}
