// The pin builder's figures for `npm run bench`, on the product's worker as a signed-in demo
// account: upload throughput (MB/s through the Worker into R2; a video streams through a byte
// counter, an image is also stripped and cut to nine sizes by the Images binding) and publish
// throughput (pins/s: drafts of uploaded images published one after another, then four at a
// time). Every answer is checked, so a refusal is never counted as speed.
import sharp from "sharp";

const MB = 1024 * 1024;
/** A phone photo's size: 3,000 × 4,000 of camera-like noise, about 3 MB as JPEG. */
const PHOTO = { width: 3000, height: 4000 };
const VIDEO_BYTES = 64 * MB;
const IMAGE_UPLOADS = 4;
const VIDEO_UPLOADS = 3;
const PUBLISHES = 24;
const PUBLISH_CONCURRENCY = 4;

/** A JPEG of smooth gradients with grain: compresses like a photograph, not like a flat colour. */
async function photoJpeg({ width, height }, seed) {
  const raw = Buffer.alloc(width * height * 3);
  let state = seed;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      const grain = (state >> 16) & 31;
      const at = (y * width + x) * 3;
      raw[at] = (x * 255) / width + grain;
      raw[at + 1] = (y * 255) / height + grain;
      raw[at + 2] = ((x + y) * 127) / (width + height) + grain;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 88 }).toBuffer();
}

/** An MP4 container (an isom ftyp box, then one mdat box) of `bytes` bytes: typed as video by its bytes, as a real one is. */
function mp4Of(bytes) {
  const body = Buffer.alloc(bytes);
  const ftyp = Buffer.from([0, 0, 0, 0x18, ...Buffer.from("ftypisom"), 0, 0, 2, 0, ...Buffer.from("isommp41")]);
  ftyp.copy(body, 0);
  body.writeUInt32BE(bytes - ftyp.length, ftyp.length);
  body.write("mdat", ftyp.length + 4, "latin1");
  return body;
}

export async function runBuilderBench({ url, headers, log }) {
  const token = /csrftoken=([^;]+)/.exec(headers.cookie)?.[1];
  const post = (contentType) => ({ ...headers, origin: url, "x-csrftoken": token, "content-type": contentType });
  async function upload(bytes, contentType) {
    const response = await fetch(`${url}/v3/media/uploads/`, { method: "POST", headers: post(contentType), body: bytes });
    const body = await response.json();
    if (response.status !== 200) throw new Error(`upload answered ${response.status}: ${JSON.stringify(body).slice(0, 200)}`);
    return body.data;
  }
  async function resource(name, action, options) {
    const response = await fetch(`${url}/resource/${name}/${action}/`, { method: "POST", headers: post("application/json"), body: JSON.stringify({ options }) });
    const body = await response.json();
    if (response.status !== 200) throw new Error(`${name} ${action} answered ${response.status}: ${JSON.stringify(body).slice(0, 200)}`);
    return body.resource_response.data;
  }
  const timed = async (work) => {
    const started = performance.now();
    const value = await work();
    return { value, seconds: (performance.now() - started) / 1000 };
  };

  const photos = await Promise.all(Array.from({ length: IMAGE_UPLOADS }, (_, at) => photoJpeg(PHOTO, at + 1)));
  const imageBytes = photos.reduce((sum, photo) => sum + photo.length, 0);
  const images = await timed(async () => {
    for (const photo of photos) await upload(photo, "image/jpeg");
  });
  const video = mp4Of(VIDEO_BYTES);
  const videos = await timed(async () => {
    for (let at = 0; at < VIDEO_UPLOADS; at++) await upload(video, "video/mp4");
  });
  log(`[bench] builder uploads: images ${(imageBytes / MB / images.seconds).toFixed(1)} MB/s (${IMAGE_UPLOADS} × ${(imageBytes / IMAGE_UPLOADS / MB).toFixed(1)} MB), videos ${((VIDEO_BYTES * VIDEO_UPLOADS) / MB / videos.seconds).toFixed(1)} MB/s (${VIDEO_UPLOADS} × ${VIDEO_BYTES / MB} MB)`);

  // Publishing: drafts of small uploaded images on a board of the account's own, made first.
  const board = await resource("BoardResource", "create", { name: `Bench ${Date.now().toString(36)}`, privacy: "secret" });
  const small = await photoJpeg({ width: 600, height: 900 }, 99);
  const drafts = [];
  for (let at = 0; at < PUBLISHES * 2; at++) {
    const made = await upload(small, "image/jpeg");
    drafts.push(await resource("PinDraftResource", "create", { title: `Bench pin ${at}`, boardId: String(board.id), items: [{ id: "item", media: { type: "image", source: "uploaded", ref: made.id } }] }));
  }
  const publish = (draft) => resource("PinResource", "create", { draft_id: draft.id });
  const sequential = await timed(async () => {
    for (const draft of drafts.slice(0, PUBLISHES)) await publish(draft);
  });
  const concurrent = await timed(async () => {
    const queue = drafts.slice(PUBLISHES);
    await Promise.all(Array.from({ length: PUBLISH_CONCURRENCY }, async () => {
      for (let draft = queue.shift(); draft; draft = queue.shift()) await publish(draft);
    }));
  });
  await resource("BoardResource", "delete", { board_id: String(board.id) }).catch(() => undefined);
  const result = {
    upload_image_mb_per_s: round(imageBytes / MB / images.seconds),
    upload_image_ms_each: round((images.seconds * 1000) / IMAGE_UPLOADS),
    upload_image_mb_each: round(imageBytes / IMAGE_UPLOADS / MB),
    upload_video_mb_per_s: round((VIDEO_BYTES * VIDEO_UPLOADS) / MB / videos.seconds),
    upload_video_mb_each: VIDEO_BYTES / MB,
    publish_pins_per_s_sequential: round(PUBLISHES / sequential.seconds),
    publish_pins_per_s_concurrent: round(PUBLISHES / concurrent.seconds),
    publish_concurrency: PUBLISH_CONCURRENCY,
    publishes_each: PUBLISHES,
  };
  log(`[bench] builder publish: ${result.publish_pins_per_s_sequential} pins/s one at a time, ${result.publish_pins_per_s_concurrent} pins/s ${PUBLISH_CONCURRENCY} at a time`);
  return result;
}

const round = (value) => Math.round(value * 100) / 100;
