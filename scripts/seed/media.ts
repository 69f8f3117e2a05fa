// Renders the seeded world's media jobs (scripts/seed/world.ts): photographs (scripts/seed/photos/)
// cover-cropped to the job's size, or pictures drawn as SVG, encoded to JPEG with sharp; short video clips encoded with the ffmpeg binary from
// @ffmpeg-installer/ffmpeg (H.264 mp4 with +faststart, and VP9 webm), WebVTT captions as text.
//
// Deterministic: a picture depends only on its ImageSpec (its own small PRNG is seeded from
// spec.seed), and shapes are laid out in fractions of the canvas, so the same spec drawn at
// another size with the same aspect ratio is the same picture (video frame 0 == the poster).
// A photo is cropped around its centre; a clip of a photo slowly zooms in from that crop.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import type { OutputInfo, Sharp } from "sharp";
import { fileURLToPath } from "node:url";
import type { ClipSpec, ImageJob, ImageOutput, ImageSpec } from "./world.ts";

export type RenderedObject = { key: string; body: Uint8Array; contentType: string };

const JPEG = { quality: 80, optimiseCoding: false, chromaSubsampling: "4:2:0" } as const;
const FONT = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif";
const SERIF = "DejaVu Serif, Liberation Serif, Georgia, serif";

// ---------------------------------------------------------------------------------------
// Drawing
// ---------------------------------------------------------------------------------------

/** mulberry32: a tiny deterministic PRNG for shape layout. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function xml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

function color(palette: readonly string[], index: number): string {
  return palette[index % palette.length] ?? "#cccccc";
}

function n(value: number): string {
  return (Math.round(value * 10) / 10).toString();
}

/** Greedy word wrap by an average glyph width. */
function wrap(text: string, maxChars: number, maxLines: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    if (line && `${line} ${word}`.length > maxChars) {
      lines.push(line);
      line = word;
      if (lines.length === maxLines) break;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (lines.length < maxLines && line) lines.push(line);
  if (lines.length === maxLines && words.join(" ").length > lines.join(" ").length) {
    lines[maxLines - 1] = `${(lines[maxLines - 1] ?? "").replace(/[\s,.;:]+$/, "")}…`;
  }
  return lines;
}

/**
 * The SVG of a picture at width x height; `t` in [0, 1) animates it (t = 0 is the still).
 * Everything is placed in fractions of the canvas so the picture scales with it.
 */
function svgFor(spec: ImageSpec, width: number, height: number, t = 0): string {
  const random = prng(spec.seed);
  const p = spec.palette;
  const W = width;
  const H = height;
  const M = Math.min(W, H);
  const wave = (phase: number, amount: number): number => Math.sin(2 * Math.PI * (t + phase)) * amount - Math.sin(2 * Math.PI * phase) * amount;
  const parts: string[] = [];
  const defs: string[] = [];
  const open = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">`;

  switch (spec.style) {
    case "blobs": {
      defs.push(
        `<linearGradient id="bg" x1="0" y1="0" x2="${n(1 - t * 0.3)}" y2="1"><stop offset="0" stop-color="${color(p, 0)}"/><stop offset="1" stop-color="${color(p, 0)}" stop-opacity="0.85"/></linearGradient>`,
      );
      parts.push(`<rect width="${W}" height="${H}" fill="${color(p, 3)}"/>`, `<rect width="${W}" height="${H}" fill="url(#bg)"/>`);
      const count = 3 + Math.floor(random() * 3);
      for (let i = 0; i < count; i++) {
        const cx = random() * W + wave(random(), W * 0.08);
        const cy = random() * H + wave(random(), H * 0.06);
        const r = (0.14 + random() * 0.24) * M;
        const c = color(p, 1 + (i % 3));
        defs.push(`<radialGradient id="b${i}"><stop offset="0" stop-color="${c}" stop-opacity="0.95"/><stop offset="1" stop-color="${c}" stop-opacity="0"/></radialGradient>`);
        parts.push(`<ellipse cx="${n(cx)}" cy="${n(cy)}" rx="${n(r * (1 + random() * 0.4))}" ry="${n(r)}" fill="url(#b${i})"/>`);
      }
      parts.push(`<circle cx="${n(W * (0.2 + random() * 0.6))}" cy="${n(H * (0.2 + random() * 0.6) + wave(0.25, H * 0.05))}" r="${n(M * 0.06)}" fill="${color(p, 3)}" opacity="0.8"/>`);
      break;
    }
    case "stripes": {
      parts.push(`<rect width="${W}" height="${H}" fill="${color(p, 0)}"/>`);
      const angle = -35 + random() * 70;
      const band = (0.05 + random() * 0.06) * Math.max(W, H);
      const shift = t * band * 4;
      const stripes: string[] = [];
      const span = Math.hypot(W, H);
      for (let x = -span, i = 0; x < span; x += band * 2.2, i++) {
        if (random() < 0.35) continue;
        stripes.push(`<rect x="${n(x + shift)}" y="${n(-span)}" width="${n(band * (0.4 + random() * 0.8))}" height="${n(span * 2)}" fill="${color(p, 1 + (i % 3))}" opacity="${n(0.55 + random() * 0.4)}"/>`);
      }
      parts.push(`<g transform="translate(${n(W / 2)} ${n(H / 2)}) rotate(${n(angle)})">${stripes.join("")}</g>`);
      parts.push(`<circle cx="${n(W * (0.25 + random() * 0.5))}" cy="${n(H * (0.25 + random() * 0.5))}" r="${n(M * (0.12 + random() * 0.1))}" fill="${color(p, 0)}" stroke="${color(p, 3)}" stroke-width="${n(M * 0.02)}"/>`);
      break;
    }
    case "bauhaus": {
      parts.push(`<rect width="${W}" height="${H}" fill="${color(p, 0)}"/>`);
      const cols = 2 + Math.floor(random() * 2);
      const cell = W / cols;
      const rows = Math.ceil(H / cell);
      for (let row = 0; row < rows; row++) {
        for (let col = 0; col < cols; col++) {
          if (random() < 0.4) continue;
          const x = col * cell;
          const y = row * cell;
          const c = color(p, 1 + Math.floor(random() * 4));
          const kind = Math.floor(random() * 4);
          const spin = n(wave(random(), 25));
          const cx = x + cell / 2;
          const cy = y + cell / 2;
          let shape: string;
          if (kind === 0) shape = `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(cell * 0.38)}" fill="${c}"/>`;
          else if (kind === 1) shape = `<path d="M${n(x)} ${n(y + cell)} A${n(cell)} ${n(cell)} 0 0 1 ${n(x + cell)} ${n(y)} L${n(x + cell)} ${n(y + cell)} Z" fill="${c}"/>`;
          else if (kind === 2) shape = `<polygon points="${n(x + cell * 0.1)},${n(y + cell * 0.9)} ${n(cx)},${n(y + cell * 0.1)} ${n(x + cell * 0.9)},${n(y + cell * 0.9)}" fill="${c}"/>`;
          else shape = `<rect x="${n(x + cell * 0.15)}" y="${n(y + cell * 0.15)}" width="${n(cell * 0.7)}" height="${n(cell * 0.7)}" fill="${c}"/>`;
          parts.push(`<g transform="rotate(${spin} ${n(cx)} ${n(cy)})">${shape}</g>`);
        }
      }
      break;
    }
    case "horizon": {
      defs.push(`<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${color(p, 0)}"/><stop offset="1" stop-color="${color(p, 3)}"/></linearGradient>`);
      parts.push(`<rect width="${W}" height="${H}" fill="url(#sky)"/>`);
      const sunY = H * (0.32 + random() * 0.12) - t * H * 0.12;
      parts.push(`<circle cx="${n(W * (0.3 + random() * 0.4))}" cy="${n(sunY)}" r="${n(M * (0.1 + random() * 0.06))}" fill="${color(p, 2)}" opacity="0.9"/>`);
      const layers = 3;
      for (let layer = 0; layer < layers; layer++) {
        const base = H * (0.55 + layer * 0.14);
        const amp = H * (0.05 + random() * 0.06);
        const phase = random() * Math.PI * 2;
        const drift = wave(random(), W * 0.05 * (layer + 1));
        let d = `M0 ${n(H)} L0 ${n(base)}`;
        for (let i = 0; i <= 12; i++) {
          const x = (i / 12) * W;
          d += ` L${n(x)} ${n(base - Math.sin(((x + drift) / W) * Math.PI * 2 + phase) * amp)}`;
        }
        d += ` L${n(W)} ${n(H)} Z`;
        parts.push(`<path d="${d}" fill="${color(p, layer === 2 ? 4 : 1 + layer)}" opacity="${n(0.75 + layer * 0.12)}"/>`);
      }
      break;
    }
    case "quote": {
      parts.push(`<rect width="${W}" height="${H}" fill="${color(p, 0)}"/>`);
      for (let i = 0; i < 4; i++) {
        parts.push(`<circle cx="${n(random() * W)}" cy="${n(random() * H)}" r="${n(M * (0.05 + random() * 0.12))}" fill="${color(p, 1 + (i % 2))}" opacity="0.5"/>`);
      }
      const cardX = W * 0.1;
      const cardY = H * 0.22;
      const cardW = W * 0.8;
      const cardH = H * 0.56;
      parts.push(`<rect x="${n(cardX)}" y="${n(cardY)}" width="${n(cardW)}" height="${n(cardH)}" rx="${n(M * 0.03)}" fill="${color(p, 3)}"/>`);
      const text = spec.text ?? "";
      const fontSize = Math.max(12, Math.round(W * 0.075));
      const lines = wrap(text, Math.max(6, Math.floor(cardW / (fontSize * 0.58))), Math.max(1, Math.floor((cardH * 0.8) / (fontSize * 1.25))));
      const startY = cardY + cardH / 2 - ((lines.length - 1) * fontSize * 1.25) / 2 + fontSize * 0.35;
      lines.forEach((line, index) => {
        parts.push(
          `<text x="${n(W / 2)}" y="${n(startY + index * fontSize * 1.25)}" font-family="${SERIF}" font-size="${fontSize}" font-weight="bold" text-anchor="middle" fill="${color(p, 4)}">${xml(line)}</text>`,
        );
      });
      break;
    }
    case "mosaic": {
      parts.push(`<rect width="${W}" height="${H}" fill="${color(p, 0)}"/>`);
      const cols = 4 + Math.floor(random() * 3);
      const cell = W / cols;
      const rows = Math.ceil(H / cell);
      const gap = cell * 0.06;
      for (let row = 0; row < rows; row++) {
        for (let col = 0; col < cols; col++) {
          const roll = random();
          if (roll < 0.5) continue;
          const c = color(p, 1 + Math.floor(random() * 4));
          const pulse = n(0.6 + 0.35 * Math.abs(Math.sin(Math.PI * (t + roll))));
          parts.push(`<rect x="${n(col * cell + gap)}" y="${n(row * cell + gap)}" width="${n(cell - gap * 2)}" height="${n(cell - gap * 2)}" rx="${n(cell * 0.12)}" fill="${c}" opacity="${pulse}"/>`);
        }
      }
      break;
    }
    case "plate": {
      parts.push(`<rect width="${W}" height="${H}" fill="${color(p, 0)}"/>`);
      parts.push(`<rect x="${n(W * 0.62)}" y="0" width="${n(W * 0.22)}" height="${H}" fill="${color(p, 3)}" opacity="0.35"/>`);
      const cx = W * (0.45 + random() * 0.1);
      const cy = H * (0.45 + random() * 0.1);
      const r = M * 0.36;
      parts.push(`<circle cx="${n(cx + M * 0.015)}" cy="${n(cy + M * 0.02)}" r="${n(r)}" fill="#000" opacity="0.12"/>`);
      parts.push(`<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}" fill="${color(p, 3)}"/>`);
      parts.push(`<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r * 0.78)}" fill="none" stroke="${color(p, 0)}" stroke-opacity="0.35" stroke-width="${n(M * 0.01)}"/>`);
      const items = 5 + Math.floor(random() * 5);
      for (let i = 0; i < items; i++) {
        const angle = random() * Math.PI * 2 + t * Math.PI * 0.5;
        const dist = random() * r * 0.55;
        const size = r * (0.12 + random() * 0.16);
        parts.push(`<ellipse cx="${n(cx + Math.cos(angle) * dist)}" cy="${n(cy + Math.sin(angle) * dist)}" rx="${n(size)}" ry="${n(size * 0.7)}" fill="${color(p, 1 + (i % 2))}"/>`);
      }
      for (let i = 0; i < 12; i++) {
        const angle = random() * Math.PI * 2;
        const dist = random() * r * 0.65;
        parts.push(`<circle cx="${n(cx + Math.cos(angle) * dist)}" cy="${n(cy + Math.sin(angle) * dist)}" r="${n(M * 0.008)}" fill="#4f7a3a"/>`);
      }
      break;
    }
    case "avatar": {
      parts.push(`<rect width="${W}" height="${H}" fill="${color(p, 0)}"/>`);
      parts.push(`<circle cx="${n(W * (0.2 + random() * 0.6))}" cy="${n(H * (0.2 + random() * 0.6))}" r="${n(M * 0.45)}" fill="${color(p, 1)}" opacity="0.45"/>`);
      if (spec.text) {
        parts.push(
          `<text x="${n(W / 2)}" y="${n(H / 2 + M * 0.15)}" font-family="${FONT}" font-size="${n(M * 0.42)}" font-weight="bold" text-anchor="middle" fill="${color(p, 3)}">${xml(spec.text)}</text>`,
        );
      } else {
        parts.push(`<circle cx="${n(W / 2)}" cy="${n(H * 0.4)}" r="${n(M * 0.16)}" fill="${color(p, 3)}"/>`);
        parts.push(`<ellipse cx="${n(W / 2)}" cy="${n(H * 0.9)}" rx="${n(M * 0.32)}" ry="${n(M * 0.26)}" fill="${color(p, 3)}"/>`);
      }
      break;
    }
  }
  return `${open}<defs>${defs.join("")}</defs>${parts.join("")}</svg>`;
}

// ---------------------------------------------------------------------------------------
// Images
// ---------------------------------------------------------------------------------------

type Raw = { data: Buffer; info: OutputInfo };

/** The committed photographs: scripts/seed/photos/<file>. */
export const PHOTO_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "photos");

/** How much a photo clip zooms in over its length (1 = none). */
const CLIP_ZOOM = 1.12;

// Decoded once per seed: every pin showing a photo crops the same pixels.
const decoded = new Map<string, Promise<Raw>>();

function decodePhoto(file: string): Promise<Raw> {
  let pending = decoded.get(file);
  if (!pending) {
    pending = sharp(path.join(PHOTO_DIR, file))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
      .then(({ data, info }) => ({ data, info }));
    decoded.set(file, pending);
  }
  return pending;
}

/** The photo cropped (centred) to width:height and resized to it; t zooms in for clips. */
async function photoFrame(file: string, width: number, height: number, t: number): Promise<Raw> {
  const source = await decodePhoto(file);
  const sourceW = source.info.width;
  const sourceH = source.info.height;
  const aspect = width / height;
  const zoom = 1 + (CLIP_ZOOM - 1) * t;
  const coverW = sourceW / sourceH > aspect ? sourceH * aspect : sourceW;
  const cropW = Math.max(1, Math.min(sourceW, Math.round(coverW / zoom)));
  const cropH = Math.max(1, Math.min(sourceH, Math.round(cropW / aspect)));
  const { data, info } = await fromRaw(source)
    .extract({ left: Math.floor((sourceW - cropW) / 2), top: Math.floor((sourceH - cropH) / 2), width: cropW, height: cropH })
    .resize(width, height, { fit: "fill" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, info };
}

async function rasterize(spec: ImageSpec, width: number, height: number, t = 0): Promise<Raw> {
  if (spec.photo) return photoFrame(spec.photo, width, height, t);
  const { data, info } = await sharp(Buffer.from(svgFor(spec, width, height, t)))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, info };
}

function fromRaw(raw: Raw): Sharp {
  return sharp(raw.data, { raw: { width: raw.info.width, height: raw.info.height, channels: raw.info.channels as 3 | 4 } });
}

/**
 * Renders one job: draws the picture once at spec size, then every output is cut from it
 * (cover-cropped to exactly width x height). Small outputs come from a mid-size copy.
 */
export async function renderImageJob(job: ImageJob): Promise<RenderedObject[]> {
  const { spec } = job;
  const orig = await rasterize(spec, spec.width, spec.height);
  let mid: Raw | null = null;
  if (spec.width > 600 && job.outputs.some((output) => output.width <= 300)) {
    const midWidth = 480;
    const { data, info } = await fromRaw(orig)
      .resize(midWidth, Math.round((midWidth * spec.height) / spec.width), { fit: "fill" })
      .raw()
      .toBuffer({ resolveWithObject: true });
    mid = { data, info };
  }
  const byDims = new Map<string, Promise<Buffer>>();
  const encode = (output: ImageOutput): Promise<Buffer> => {
    const id = `${output.width}x${output.height}`;
    const known = byDims.get(id);
    if (known) return known;
    let pending: Promise<Buffer>;
    if (output.width === spec.width && output.height === spec.height) {
      pending = fromRaw(orig).jpeg(JPEG).toBuffer();
    } else {
      const source = mid && output.width <= 300 && output.height <= mid.info.height ? mid : orig;
      pending = fromRaw(source).resize(output.width, output.height, { fit: "cover", position: "centre" }).jpeg(JPEG).toBuffer();
    }
    byDims.set(id, pending);
    return pending;
  };
  const bodies = await Promise.all(job.outputs.map(encode));
  return job.outputs.map((output, index) => ({ key: output.key, body: bodies[index] ?? Buffer.alloc(0), contentType: "image/jpeg" }));
}

// ---------------------------------------------------------------------------------------
// Video
// ---------------------------------------------------------------------------------------

/** The ffmpeg binary shipped by @ffmpeg-installer/ffmpeg. */
function ffmpegPath(): string {
  const require = createRequire(import.meta.url);
  const installer = require("@ffmpeg-installer/ffmpeg") as { path: string };
  return installer.path;
}

function runFfmpeg(binary: string, args: string[]): { stdin: NodeJS.WritableStream; done: Promise<void> } {
  const child = spawn(binary, args, { stdio: ["pipe", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const done = new Promise<void>((resolve, reject) => {
    child.on("error", (error) => reject(new Error(`ffmpeg could not start (${binary}): ${error.message}`)));
    child.on("close", (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`ffmpeg exited with ${signal ?? code}: ${stderr.trim()}`));
    });
  });
  // A dead encoder surfaces through `done`; keep EPIPE on stdin from crashing the process.
  child.stdin.on("error", () => {});
  return { stdin: child.stdin, done };
}

function write(stream: NodeJS.WritableStream, chunk: Buffer): Promise<void> {
  return new Promise((resolve) => {
    if (stream.write(chunk)) resolve();
    else stream.once("drain", () => resolve());
  });
}

/**
 * Encodes one clip: frames drawn with sharp are piped raw into two ffmpeg processes at
 * once, H.264 (yuv420p, +faststart) and VP9, both small and silent.
 */
export async function renderClip(clip: ClipSpec, binary = ffmpegPath()): Promise<{ mp4: Uint8Array; webm: Uint8Array }> {
  const dir = await mkdtemp(path.join(tmpdir(), "pinloom-clip-"));
  try {
    const mp4Path = path.join(dir, "clip.mp4");
    const webmPath = path.join(dir, "clip.webm");
    const input = ["-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", `${clip.width}x${clip.height}`, "-r", String(clip.fps), "-i", "-"];
    const gop = String(clip.fps * 2);
    const mp4 = runFfmpeg(binary, [...input, "-an", "-c:v", "libx264", "-preset", "veryfast", "-profile:v", "main", "-crf", "28", "-g", gop, "-pix_fmt", "yuv420p", "-movflags", "+faststart", mp4Path]);
    const webm = runFfmpeg(binary, [...input, "-an", "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-crf", "38", "-b:v", "400k", "-g", gop, "-pix_fmt", "yuv420p", webmPath]);
    try {
      for (let frame = 0; frame < clip.frames; frame++) {
        const raw = await rasterize(clip.spec, clip.width, clip.height, frame / clip.frames);
        await Promise.all([write(mp4.stdin, raw.data), write(webm.stdin, raw.data)]);
      }
    } finally {
      mp4.stdin.end();
      webm.stdin.end();
    }
    await Promise.all([mp4.done, webm.done]);
    return { mp4: await readFile(mp4Path), webm: await readFile(webmPath) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
