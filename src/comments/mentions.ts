// @mentions in the composer, pure: which "@name" the caret is in, the people to suggest for it,
// putting the chosen one in the text, and the tags (UTF-16 offsets in the text as sent) for
// everyone chosen whose "@username" is still in the text when it is posted. Tags are derived
// at posting time, so any edit after choosing someone (or deleting the mention) is honoured.
import { COMMENT_TAGS_MAX, type Tag } from "./comment.ts";

export interface MentionUser {
  id: string;
  username: string;
  full_name: string;
}

const NAME = /[A-Za-z0-9_.]/;
const SUGGESTIONS_MAX = 6;

/** The "@query" the caret ends, when it starts the text or follows whitespace or punctuation. */
export function activeMention(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const match = /(^|[^A-Za-z0-9_.@])@([A-Za-z0-9_.]{0,30})$/.exec(before);
  if (!match) return null;
  return { start: caret - (match[2]?.length ?? 0) - 1, query: match[2] ?? "" };
}

/** People whose username or name starts with the query (case-insensitive), the query's exact user first. */
export function suggestions(query: string, people: readonly MentionUser[], max = SUGGESTIONS_MAX): MentionUser[] {
  const q = query.toLowerCase();
  const seen = new Set<string>();
  const out: MentionUser[] = [];
  const ranked = [...people].sort((a, b) => Number(b.username.toLowerCase() === q) - Number(a.username.toLowerCase() === q));
  for (const person of ranked) {
    if (seen.has(person.id)) continue;
    const names = [person.username, ...person.full_name.split(/\s+/)].map((name) => name.toLowerCase());
    if (q !== "" && !names.some((name) => name.startsWith(q))) continue;
    seen.add(person.id);
    out.push(person);
    if (out.length >= max) break;
  }
  return out;
}

/** Replaces "@query" (from `start` to the caret) with "@username " and says where the caret goes. */
export function insertMention(text: string, start: number, caret: number, username: string): { text: string; caret: number } {
  const mention = `@${username} `;
  return { text: text.slice(0, start) + mention + text.slice(caret), caret: start + mention.length };
}

/** Tags for each chosen person's "@username" still in the text (whole names only, at most 20). */
export function tagsFor(text: string, chosen: readonly MentionUser[]): Tag[] {
  const tags: Tag[] = [];
  for (const user of chosen) {
    const needle = `@${user.username}`;
    let from = 0;
    for (;;) {
      const at = text.indexOf(needle, from);
      if (at < 0) break;
      from = at + needle.length;
      const before = at === 0 ? "" : text.charAt(at - 1);
      const after = text.charAt(at + needle.length);
      if ((before !== "" && (NAME.test(before) || before === "@")) || (after !== "" && NAME.test(after))) continue;
      tags.push({ user_id: user.id, offset: at, length: needle.length });
    }
  }
  return tags.sort((a, b) => a.offset - b.offset).slice(0, COMMENT_TAGS_MAX);
}
