// Boards: their privacies and how a board is addressed. Who may see a board and which pins it
// lists is the visibility table's (src/visibility/rules.ts).
import { z } from "zod";

export const BOARD_PRIVACIES = ["public", "secret", "protected"] as const;
export type BoardPrivacy = (typeof BOARD_PRIVACIES)[number];

/** A board slug as a URL segment: letters, digits, hyphens (slugify keeps any script's letters). */
export const boardSlugSchema = z.string().regex(/^[\p{L}\p{N}_-]{1,120}$/u, "board slugs are letters, digits and hyphens");
