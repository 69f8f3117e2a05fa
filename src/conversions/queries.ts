// The upload history's table state (spec 002 §3), shared by its API and its pages, which read it
// from their own URLs.
import { z } from "zod";
import { tableQuerySchema } from "~/business/table-state.ts";

export const CONVERSION_UPLOAD_SORTS = ["created_time", "file_name", "status"] as const;
export const CONVERSION_UPLOAD_SEARCHES = ["file_name"] as const;

export const uploadQuery = tableQuerySchema(CONVERSION_UPLOAD_SORTS, CONVERSION_UPLOAD_SEARCHES, z.strictObject({}));
