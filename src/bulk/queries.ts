// The bulk editor's list queries, shared by its API (functions/business-bulk.ts) and its pages,
// which read the same table state (spec 002 §3) from their own URLs.
import { z } from "zod";
import { tableQuerySchema } from "~/business/table-state.ts";
import { SECTIONS } from "./columns.ts";

export const UPLOAD_SORTS = ["created_time", "file_name", "status"] as const;
export const UPLOAD_SEARCHES = ["file_name"] as const;
const UPLOAD_STATUSES = ["APPLIED", "FAILED"] as const;

export interface UploadFilters {
  status?: Array<(typeof UPLOAD_STATUSES)[number]> | undefined;
}

export const uploadQuery = tableQuerySchema(UPLOAD_SORTS, UPLOAD_SEARCHES, z.strictObject({ status: z.array(z.enum(UPLOAD_STATUSES)).max(UPLOAD_STATUSES.length).optional() }));

/** An upload's row errors: in file order, a page at a time (the spec's page, limit and startIndex). */
export const uploadErrorsQuery = tableQuerySchema(["row"], ["code"], z.strictObject({}));

/** A download: which section, and the template (examples) or the account's current objects. */
export const downloadQuery = z.strictObject({
  section: z.enum(SECTIONS).default("general"),
  current: z.enum(["0", "1"]).default("0"),
});

/** The JSON form of an upload, for API clients: the file's name and its text. */
export const uploadJsonBody = z.strictObject({
  file_name: z.string().trim().min(1).max(200),
  content: z.string().max(1_000_000),
});
