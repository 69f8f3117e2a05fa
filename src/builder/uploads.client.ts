// Uploading one file from the browser: XMLHttpRequest rather than fetch, because only it
// reports upload progress (xhr.upload.onprogress). The body is the File itself (the endpoint
// takes raw bytes); the spec §7 headers come from the same function every fetch uses.
import { requestHeaders } from "~/runtime/fetch.ts";
import { parseFieldProblems } from "~/boards/field-problems.ts";
import { toUploadInfo, type UploadInfo } from "./media.ts";

export const UPLOADS_PATH = "/v3/media/uploads/";

export interface UploadHandlers {
  onProgress(loaded: number, total: number): void;
}

export interface UploadCall {
  promise: Promise<UploadInfo>;
  /** Stops the request; the promise then rejects with an UploadAborted. */
  abort(): void;
}

/** The server refused the file: its message names what is wrong (the `file` field's reason, else the message). */
export class UploadRefused extends Error {
  constructor(
    message: string,
    readonly httpStatus: number,
  ) {
    super(message);
    this.name = "UploadRefused";
  }
}

export class UploadAborted extends Error {
  constructor() {
    super("upload aborted");
    this.name = "UploadAborted";
  }
}

const pageHeaders = (method: string) =>
  requestHeaders({ cookie: document.cookie, href: location.href, visibility: document.visibilityState }, { method });

/** The message of a refusal envelope: the file field's own reason when given, else the message. */
export function refusalMessage(body: unknown, fallback: string): string {
  const envelope = body as { message?: unknown; message_detail?: unknown } | null;
  const detail = typeof envelope?.message_detail === "string" ? envelope.message_detail : null;
  const message = typeof envelope?.message === "string" ? envelope.message : null;
  const file = parseFieldProblems(detail)["file"];
  if (file && message) return `${message}: ${file}`;
  return message ?? fallback;
}

/** Sends `body` (a File, or a poster's Blob) to `path` with `method`, reporting progress. */
function sendBytes(path: string, method: "POST" | "PUT", body: Blob, handlers: UploadHandlers | null, networkMessage: string): UploadCall {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<UploadInfo>((resolve, reject) => {
    xhr.open(method, path);
    const headers = pageHeaders(method);
    delete headers["Content-Type"];
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader("Content-Type", body.type || "application/octet-stream");
    xhr.withCredentials = true;
    xhr.responseType = "json";
    if (handlers) xhr.upload.onprogress = (event) => handlers.onProgress(event.loaded, event.lengthComputable ? event.total : body.size);
    xhr.onload = () => {
      const envelope = xhr.response as { status?: string; data?: unknown } | null;
      if (xhr.status >= 200 && xhr.status < 300 && envelope?.status === "success") {
        try {
          resolve(toUploadInfo(envelope.data));
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      } else reject(new UploadRefused(refusalMessage(envelope, networkMessage), xhr.status));
    };
    xhr.onerror = () => reject(new UploadRefused(networkMessage, 0));
    xhr.onabort = () => reject(new UploadAborted());
    xhr.send(body);
  });
  return { promise, abort: () => xhr.abort() };
}

/** POST /v3/media/uploads/ with the file. */
export const uploadFile = (file: File, handlers: UploadHandlers, networkMessage: string): UploadCall => sendBytes(UPLOADS_PATH, "POST", file, handlers, networkMessage);

/** PUT /v3/media/uploads/{id}/poster/ with a JPEG frame: the video's poster. */
export const uploadPoster = (uploadId: string, frame: Blob, networkMessage: string): Promise<UploadInfo> =>
  sendBytes(`${UPLOADS_PATH}${encodeURIComponent(uploadId)}/poster/`, "PUT", frame, null, networkMessage).promise;

/** Seconds into a video the poster is taken at (past a black first frame, within any short clip). */
const POSTER_AT_SECONDS = 0.5;
const POSTER_QUALITY = 0.85;

/**
 * A JPEG of the video's frame at about half a second: the file played in a <video> from an
 * object URL, seeked, drawn on a canvas. Rejects when the browser cannot decode the file.
 */
export function posterFrame(file: Blob): Promise<Blob> {
  const url = URL.createObjectURL(file);
  const video = document.createElement("video");
  video.muted = true;
  video.playsInline = true;
  video.preload = "auto";
  const done = () => {
    URL.revokeObjectURL(url);
    video.removeAttribute("src");
    video.load();
  };
  return new Promise<Blob>((resolve, reject) => {
    video.onerror = () => reject(new Error("video could not be decoded"));
    video.onloadedmetadata = () => {
      video.currentTime = Math.min(POSTER_AT_SECONDS, Number.isFinite(video.duration) ? video.duration / 2 : POSTER_AT_SECONDS);
    };
    video.onseeked = () => {
      const canvas = document.createElement("canvas");
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      const context = canvas.getContext("2d");
      if (!context || canvas.width === 0 || canvas.height === 0) return reject(new Error("video has no frame size"));
      context.drawImage(video, 0, 0, canvas.width, canvas.height);
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("frame could not be encoded"))), "image/jpeg", POSTER_QUALITY);
    };
    video.src = url;
  }).finally(done);
}
