// The download as a ZIP, written as it streams (fflate's streaming Zip): JSON files deflated,
// media stored as they are (photos and videos do not compress) and copied from R2 chunk by
// chunk, waiting for the reader between chunks. Memory stays at a few chunks whatever the
// account holds; the media are bounded in count and bytes, and what was left out is listed.
import { Zip, ZipDeflate, ZipPassThrough } from "fflate";
import type { AccountExport } from "./export.server.ts";

const ARCHIVE_LIMITS = {
  /** Media files in one download. */
  maxMediaFiles: 1_000,
  /** Media bytes in one download (a Worker streams them; the person's connection is the limit). */
  maxMediaBytes: 2 * 1024 ** 3,
} as const;

const encoder = new TextEncoder();

interface ArchiveManifest {
  format: "pinloom-account-export";
  version: 1;
  created_at: string;
  files: string[];
  /** Lists cut at the row limit, and media left out (over the bounds or missing from storage). */
  truncated: string[];
  media_left_out: string[];
}

/** The ZIP as a stream of bytes; `done` settles when the last byte was handed to the stream. */
export function accountArchive(data: AccountExport, media: R2Bucket, now = new Date()): { stream: ReadableStream<Uint8Array>; done: Promise<void> } {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  let failed: unknown = null;
  const zip = new Zip((error, chunk, final) => {
    if (error) {
      failed = error;
      return;
    }
    void writer.write(chunk).catch(() => {});
    if (final) void writer.close().catch(() => {});
  });

  const addJson = (name: string, value: unknown) => {
    const file = new ZipDeflate(name, { level: 6 });
    zip.add(file);
    file.push(encoder.encode(`${JSON.stringify(value, null, 2)}\n`), true);
  };

  const done = (async () => {
    try {
      const files: string[] = ["account.json"];
      addJson("account.json", data.account);
      for (const [name, rows] of Object.entries(data.lists)) {
        files.push(`${name}.json`);
        addJson(`${name}.json`, rows);
        await writer.ready;
      }
      const leftOut: string[] = [];
      let bytes = 0;
      let count = 0;
      for (const key of data.mediaKeys) {
        if (count >= ARCHIVE_LIMITS.maxMediaFiles) {
          leftOut.push(key);
          continue;
        }
        const object = await media.get(key);
        if (!object || bytes + object.size > ARCHIVE_LIMITS.maxMediaBytes) {
          await object?.body.cancel();
          leftOut.push(key);
          continue;
        }
        const file = new ZipPassThrough(`media/${key}`);
        zip.add(file);
        for await (const chunk of object.body as unknown as AsyncIterable<Uint8Array>) {
          file.push(chunk);
          await writer.ready;
        }
        file.push(new Uint8Array(0), true);
        files.push(`media/${key}`);
        bytes += object.size;
        count += 1;
      }
      const manifest: ArchiveManifest = {
        format: "pinloom-account-export",
        version: 1,
        created_at: now.toISOString(),
        files,
        truncated: data.truncated,
        media_left_out: leftOut,
      };
      addJson("manifest.json", manifest);
      zip.end();
      if (failed) throw failed instanceof Error ? failed : new Error(String(failed));
    } catch (error) {
      // The download stops short rather than ending as a ZIP that looks whole.
      await writer.abort(error).catch(() => {});
      throw error;
    }
  })();
  return { stream: readable, done };
}
