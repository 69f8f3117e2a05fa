// The shapes a pin's media may have (spec 001 §5): single and carousel pins take images of
// 2:3, 3:4 or 1:1; a story's pages are 9:16. Pure, so the builder's island offers the crop with
// the same numbers the server cuts to.

export type MediaRatioKind = "pin" | "story";
export type AllowedRatio = "2:3" | "3:4" | "1:1" | "9:16";

/** Each ratio as width over height. */
const RATIOS: Record<AllowedRatio, { width: number; height: number }> = {
  "2:3": { width: 2, height: 3 },
  "3:4": { width: 3, height: 4 },
  "1:1": { width: 1, height: 1 },
  "9:16": { width: 9, height: 16 },
};

export const ALLOWED_RATIOS: Record<MediaRatioKind, readonly AllowedRatio[]> = {
  pin: ["2:3", "3:4", "1:1"],
  story: ["9:16"],
};

/** Every ratio the crop takes, whatever the kind. */
export const CROP_RATIOS = ["2:3", "3:4", "1:1", "9:16"] as const satisfies readonly AllowedRatio[];

/**
 * How far (relative to the target) a shape may be from a ratio and still count as it: 1%, so a
 * 1080×1620 photo is 2:3 and one a camera rounded to 1081×1620 is too, while 4:5 (0.8 against
 * 3:4's 0.75, 6.7% off) is offered a crop.
 */
export const RATIO_TOLERANCE = 0.01;

function checkedRatio(width: number, height: number): number {
  if (!(Number.isFinite(width) && Number.isFinite(height) && width > 0 && height > 0)) throw new RangeError("width and height must be positive numbers");
  return width / height;
}

const valueOf = (ratio: AllowedRatio) => RATIOS[ratio].width / RATIOS[ratio].height;

/** Whether a width×height image is one of the kind's ratios, within RATIO_TOLERANCE. */
export function isAllowedRatio(width: number, height: number, kind: MediaRatioKind): boolean {
  const shape = checkedRatio(width, height);
  return ALLOWED_RATIOS[kind].some((ratio) => Math.abs(shape - valueOf(ratio)) <= RATIO_TOLERANCE * valueOf(ratio));
}

/**
 * The kind's ratio nearest the image's shape, measured on a log scale so that being twice as
 * wide and twice as tall as a ratio are the same distance; a tie goes to the earlier ratio in
 * the spec's order.
 */
export function nearestAllowedRatio(width: number, height: number, kind: MediaRatioKind): AllowedRatio {
  const shape = Math.log(checkedRatio(width, height));
  let best = ALLOWED_RATIOS[kind][0]!;
  for (const ratio of ALLOWED_RATIOS[kind]) {
    if (Math.abs(shape - Math.log(valueOf(ratio))) < Math.abs(shape - Math.log(valueOf(best)))) best = ratio;
  }
  return best;
}

/**
 * The largest box of the ratio inside a width×height image (whole pixels, at least 1×1): the
 * image keeps its full height when it is wider than the ratio, its full width otherwise.
 */
export function cropBox(width: number, height: number, ratio: AllowedRatio): { width: number; height: number } {
  const shape = checkedRatio(width, height);
  const { width: rw, height: rh } = RATIOS[ratio];
  if (shape > rw / rh) return { width: Math.max(1, Math.min(width, Math.round((height * rw) / rh))), height };
  return { width, height: Math.max(1, Math.min(height, Math.round((width * rh) / rw))) };
}
