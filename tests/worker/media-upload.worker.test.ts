// The pin builder's uploads: a real JPEG is stored without its EXIF, measured and cut to every
// size of spec 000 with its dominant colour; a file that is not an image whatever its name, a
// body over the limit and a damaged image are refused with nothing stored; the upload is its
// owner's alone until a visible pin shows it; the call needs a session and the CSRF token.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { attachUploadsStatement } from "~/media/uploads.server.ts";
import { Browser } from "./accounts-helpers.ts";
import { browserAs, scalar } from "./social-fixture.ts";

const PEOPLE = { owner: 2201, stranger: 2202 } as const;
const UPLOAD_PATH = "/v3/media/uploads/";

/**
 * A real 300×450 JPEG (made with sharp), one solid colour rgb(200, 40, 40), whose EXIF carries
 * Artist "Exif Owner" and ImageDescription "GPS-SECRET-DATUM".
 */
const JPEG_300X450 = "/9j/4QDyRXhpZgAASUkqAAgAAAAIAA4BAgARAAAAfgAAABIBAwABAAAAAQAAABoBBQABAAAAbgAAABsBBQABAAAAdgAAACgBAwABAAAAAgAAADsBAgALAAAAkAAAABMCAwABAAAAAQAAAGmHBAABAAAAnAAAAAAAAAA4YwAA6AMAADhjAADoAwAAR1BTLVNFQ1JFVC1EQVRVTQAARXhpZiBPd25lcgAABgAAkAcABAAAADAyMTABkQcABAAAAAECAwAAoAcABAAAADAxMDABoAMAAQAAAP//AAACoAQAAQAAACwBAAADoAQAAQAAAMIBAAAAAAAA/9sAQwAGBAUGBQQGBgUGBwcGCAoQCgoJCQoUDg8MEBcUGBgXFBYWGh0lHxobIxwWFiAsICMmJykqKRkfLTAtKDAlKCko/9sAQwEHBwcKCAoTCgoTKBoWGigoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgo/8AAEQgBwgEsAwEiAAIRAQMRAf/EABUAAQEAAAAAAAAAAAAAAAAAAAAG/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/EABYBAQEBAAAAAAAAAAAAAAAAAAAFB//EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AIoBAa2AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA//9k=";
const jpegBytes = (): Uint8Array<ArrayBuffer> => Uint8Array.from(atob(JPEG_300X450), (char) => char.charCodeAt(0));
const latin1 = (bytes: Uint8Array) => new TextDecoder("latin1").decode(bytes);

beforeAll(async () => {
  await env.DB.batch(
    Object.entries(PEOPLE).map(([name, id]) =>
      env.DB.prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, created_at) VALUES (?1, ?2, ?3, ?2, ?2, 1, 0)").bind(id, `upload_${name}`, `${name}@uploads.test`),
    ),
  );
});

interface Upload {
  id: string;
  kind: string;
  content_type: string;
  width: number | null;
  height: number | null;
  dominant_color: string | null;
  status: string;
  images: Record<string, { url: string; width: number; height: number }> | null;
}
type Answer = { data: Upload | null; message?: string; message_detail?: string | null; api_error_code?: number };

async function upload(browser: Browser, body: BodyInit, headers: Record<string, string> = {}): Promise<{ status: number; json: Answer }> {
  const response = await browser.fetch(UPLOAD_PATH, { method: "POST", body, headers: { "content-type": "image/jpeg", ...headers } });
  return { status: response.status, json: await response.json<Answer>() };
}

/** Every object under the uploads folder and every upload row: what "nothing stored" compares. */
async function stored(): Promise<{ objects: number; rows: number }> {
  const listed = await env.MEDIA.list({ prefix: "uploads/" });
  return { objects: listed.objects.length, rows: (await scalar<number>("SELECT COUNT(*) FROM media_uploads")) ?? 0 };
}

describe("a real JPEG upload", () => {
  let answer: Upload;
  beforeAll(async () => {
    const { status, json } = await upload(await browserAs(PEOPLE.owner), new File([jpegBytes()], "beach.jpg"));
    expect(status).toBe(200);
    answer = json.data!;
  });

  it("is measured from its bytes, with its dominant colour", () => {
    expect(answer).toMatchObject({ kind: "image", content_type: "image/jpeg", width: 300, height: 450, dominant_color: "#c82828", status: "uploaded" });
  });

  it("is stored at every size of spec 000: boxes cropped to cover, widths never enlarged", async () => {
    const sizes = Object.fromEntries(Object.entries(answer.images!).map(([size, image]) => [size, [image.width, image.height]]));
    expect(sizes).toEqual({
      "60x60": [60, 60],
      "136x136": [136, 136],
      "170x": [170, 255],
      "236x": [236, 354],
      "474x": [300, 450],
      "564x": [300, 450],
      "736x": [300, 450],
      "600x315": [600, 315],
      orig: [300, 450],
    });
    const keys = (await env.MEDIA.list({ prefix: `uploads/${PEOPLE.owner}/${answer.id}/` })).objects.map((object) => object.key).sort();
    expect(keys).toEqual(
      ["60x60.jpg", "136x136.jpg", "170x.jpg", "236x.jpg", "474x.jpg", "564x.jpg", "736x.jpg", "600x315.jpg", "orig.jpg"].map((name) => `uploads/${PEOPLE.owner}/${answer.id}/${name}`).sort(),
    );
  });

  it("keeps no EXIF in any stored size", async () => {
    expect(latin1(jpegBytes())).toContain("GPS-SECRET-DATUM");
    for (const image of Object.values(answer.images!)) {
      const object = await env.MEDIA.get(image.url.slice("/media/".length));
      const text = latin1(new Uint8Array(await object!.arrayBuffer()));
      expect(text, image.url).not.toContain("GPS-SECRET-DATUM");
      expect(text, image.url).not.toContain("Exif Owner");
      expect(text, image.url).not.toContain("Exif\0\0");
    }
  });

  it("is served to its owner, and answers another person and a signed-out visitor as missing", async () => {
    const url = answer.images!["236x"]!.url;
    expect((await (await browserAs(PEOPLE.owner)).fetch(url)).status).toBe(200);
    expect((await (await browserAs(PEOPLE.owner)).fetch(url)).headers.get("cache-control")).toBe("private, no-store");
    expect((await (await browserAs(PEOPLE.stranger)).fetch(url)).status).toBe(404);
    expect((await new Browser().fetch(url)).status).toBe(404);
    expect((await (await browserAs(PEOPLE.owner)).fetch(`${UPLOAD_PATH}${answer.id}/`)).status).toBe(200);
    expect((await (await browserAs(PEOPLE.stranger)).fetch(`${UPLOAD_PATH}${answer.id}/`)).status).toBe(404);
  });

  it("is served to others once a public pin that shows it is published", async () => {
    const db = env.DB;
    const orig = answer.images!.orig!;
    await db.batch([
      db.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (22100, ?1, 'Made', 'made', 'public', 0, 0)").bind(PEOPLE.owner),
      db.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at) VALUES (22101, ?1, 22100, 'image', 'Mine', 'sig', 0, 0)").bind(PEOPLE.owner),
      db.prepare("INSERT INTO pin_images VALUES (22101, 'orig', ?1, ?2, ?3, '#c82828')").bind(orig.url, orig.width, orig.height),
      attachUploadsStatement(db, PEOPLE.owner, [answer.id], 22101, "published"),
    ]);
    expect(await scalar("SELECT status FROM media_uploads WHERE id = ?1", answer.id)).toBe("published");
    expect((await (await browserAs(PEOPLE.stranger)).fetch(orig.url)).status).toBe(200);
    expect((await (await browserAs(PEOPLE.stranger)).fetch(answer.images!["60x60"]!.url)).status).toBe(200);
  });
});

describe("a video upload", () => {
  it("streams to R2 as it came, typed by its ftyp box, private to its owner", async () => {
    // An ISO BMFF header with the isom brand, then an mdat box of 4,000 bytes: the Worker types
    // video by its container and stores it unchanged (it decodes no video).
    const ftyp = Uint8Array.from([0, 0, 0, 0x18, ..."ftypisom", 0, 0, 2, 0, ..."isommp41"].map((value) => (typeof value === "string" ? value.charCodeAt(0) : value)));
    const mdat = new Uint8Array(4008);
    mdat.set([0, 0, 0x0f, 0xa8, 0x6d, 0x64, 0x61, 0x74]);
    const { status, json } = await upload(await browserAs(PEOPLE.owner), new File([ftyp, mdat], "clip.mov", { type: "video/quicktime" }));
    expect(status).toBe(200);
    expect(json.data).toMatchObject({ kind: "video", content_type: "video/mp4", width: null, height: null, images: null });
    const key = `uploads/${PEOPLE.owner}/${json.data!.id}/video.mp4`;
    expect((await env.MEDIA.head(key))?.size).toBe(24 + 4008);
    expect((await (await browserAs(PEOPLE.owner)).fetch(`/media/${key}`)).status).toBe(200);
    expect((await (await browserAs(PEOPLE.stranger)).fetch(`/media/${key}`)).status).toBe(404);
  });
});

describe("refused uploads store nothing", () => {
  it("refuses a file named .jpg that is not an image", async () => {
    const before = await stored();
    const { status, json } = await upload(await browserAs(PEOPLE.owner), new File([new TextEncoder().encode("<html>not a photo</html>")], "photo.jpg", { type: "image/jpeg" }));
    expect(status).toBe(400);
    expect(json.message_detail).toBe("file: must be a JPEG, PNG, WebP or GIF image, or an MP4 or WebM video");
    expect(await stored()).toEqual(before);
  });

  it("refuses a body whose length passes 209,715,200 bytes before reading it", async () => {
    const before = await stored();
    let pulled = 0;
    // Claims one byte over the limit and would produce it lazily, 64 KiB at a time.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = new Uint8Array(Math.min(65_536, 209_715_201 - pulled));
        if (pulled === 0) chunk.set([0xff, 0xd8, 0xff, 0xe0]);
        pulled += chunk.length;
        controller.enqueue(chunk);
        if (pulled >= 209_715_201) controller.close();
      },
    });
    const { status, json } = await upload(await browserAs(PEOPLE.owner), body, { "content-length": "209715201" });
    expect(status).toBe(413);
    expect(json.message_detail).toBe("file: must be at most 200 MB");
    expect(pulled).toBeLessThan(1_048_576);
    expect(await stored()).toEqual(before);
  });

  it("refuses a truncated JPEG as damaged", async () => {
    const before = await stored();
    const bytes = jpegBytes();
    const { status, json } = await upload(await browserAs(PEOPLE.owner), new File([bytes.subarray(0, bytes.length - 200)], "cut.jpg"));
    expect(status).toBe(400);
    expect(json.message_detail).toBe("file: couldn't be read: the image is damaged or incomplete");
    expect(await stored()).toEqual(before);
  });

  it("refuses a signed-out upload with 401 and one without the CSRF token with 403", async () => {
    const before = await stored();
    expect((await upload(new Browser(), new File([jpegBytes()], "a.jpg"))).status).toBe(401);
    const noToken = await browserAs(PEOPLE.owner);
    noToken.cookies.delete("csrftoken");
    expect((await upload(noToken, new File([jpegBytes()], "a.jpg"), { "x-csrftoken": "" })).status).toBe(403);
    expect(await stored()).toEqual(before);
  });
});
