// Option schemas shared by the board, section and save calls (the API's ids are decimal
// strings ^\d{1,18}$; board titles 1..50 characters after trimming, descriptions at most 500,
// spec 000 §9). A schema failure is a 400 naming the option (functions/resource.ts).
import { z } from "zod";
import { BOARD_PRIVACIES } from "./board.ts";

/** An id as the API sends it: 1 to 18 digits, answered as a number. */
export const idOption = z
  .string()
  .regex(/^\d{1,18}$/, "ids are 1 to 18 digits")
  .transform(Number)
  .pipe(z.number().int().positive().max(Number.MAX_SAFE_INTEGER));

const BOARD_NAME_MAX = 50;
const BOARD_DESCRIPTION_MAX = 500;
const SECTION_TITLE_MAX = 50;
/** At most this many ids in one bulk call, and so sections on one board: the reorder call lists them all. */
export const MAX_BULK_IDS = 250;
export const MAX_PAGE_SIZE = 50;

export const boardNameOption = z.string().max(500).trim().min(1).max(BOARD_NAME_MAX);
export const sectionTitleOption = z.string().max(500).trim().min(1).max(SECTION_TITLE_MAX);
export const descriptionOption = z.string().max(BOARD_DESCRIPTION_MAX);
export const privacyOption = z.enum(BOARD_PRIVACIES);
const BOARD_LAYOUTS = ["default", "custom"] as const;
export const layoutOption = z.enum(BOARD_LAYOUTS);
export const idListOption = z.array(idOption).max(MAX_BULK_IDS);
export const pageSizeOption = z.number().int().min(1).max(MAX_PAGE_SIZE);
