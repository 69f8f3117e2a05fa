// Video autoplay (spec 000 §4): one organic video plays at a time, the one most in view;
// promoted videos are outside that slot and play whenever they are in view. A video the person
// paused stays paused (its time and paused flag are kept), and nothing autoplays for people
// who ask for reduced motion. Videos opt in with data-autoplay="organic" or "promoted" and
// must be muted (browsers refuse to autoplay sound).

/** A video plays once at least half of it is on screen. */
export const AUTOPLAY_VISIBLE_RATIO = 0.5;

export interface Candidate {
  id: string;
  /** Intersection ratio, 0 to 1. */
  ratio: number;
  promoted: boolean;
  /** The person paused it: never started again by us. */
  userPaused: boolean;
}

/** Which videos should be playing now: the organic one most in view, and every promoted one in view. */
export function playing(candidates: readonly Candidate[], reducedMotion: boolean, threshold = AUTOPLAY_VISIBLE_RATIO): Set<string> {
  const play = new Set<string>();
  if (reducedMotion) return play;
  let organic: Candidate | null = null;
  for (const candidate of candidates) {
    if (candidate.userPaused || candidate.ratio < threshold) continue;
    if (candidate.promoted) play.add(candidate.id);
    else if (!organic || candidate.ratio > organic.ratio) organic = candidate;
  }
  if (organic) play.add(organic.id);
  return play;
}

interface Tracked {
  id: string;
  video: HTMLVideoElement;
  ratio: number;
  promoted: boolean;
  userPaused: boolean;
  /** We paused it (not the person): its pause event is ours. */
  pausing: boolean;
}

export function startAutoplay(doc: Document, win: Window = window): () => void {
  const motion = win.matchMedia("(prefers-reduced-motion: reduce)");
  const tracked = new Map<HTMLVideoElement, Tracked>();
  const videos = Array.from(doc.querySelectorAll<HTMLVideoElement>("video[data-autoplay]")).slice(0, 100);
  videos.forEach((video, index) => {
    video.muted = true;
    tracked.set(video, { id: String(index), video, ratio: 0, promoted: video.dataset["autoplay"] === "promoted", userPaused: false, pausing: false });
    video.addEventListener("pause", () => {
      const entry = tracked.get(video)!;
      if (entry.pausing) entry.pausing = false;
      else if (!video.ended) {
        entry.userPaused = true;
        video.dataset["pausedAt"] = String(video.currentTime);
      }
    });
    video.addEventListener("play", () => {
      const entry = tracked.get(video)!;
      entry.userPaused = false;
      delete video.dataset["pausedAt"];
      // A person who starts an organic video takes the organic slot.
      if (!entry.promoted) for (const other of tracked.values()) if (other !== entry && !other.promoted && !other.video.paused) pause(other);
    });
  });

  const pause = (entry: Tracked) => {
    entry.pausing = true;
    entry.video.pause();
  };
  const apply = () => {
    const play = playing([...tracked.values()], motion.matches);
    for (const entry of tracked.values()) {
      if (play.has(entry.id)) {
        if (entry.video.paused) void entry.video.play().catch(() => undefined);
      } else if (!entry.video.paused && !entry.userPaused) pause(entry);
    }
  };
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        const item = tracked.get(entry.target as HTMLVideoElement);
        if (item) item.ratio = entry.isIntersecting ? entry.intersectionRatio : 0;
      }
      apply();
    },
    { threshold: [0, 0.25, 0.5, 0.75, 1] },
  );
  for (const video of tracked.keys()) observer.observe(video);
  motion.addEventListener("change", apply);
  return () => {
    observer.disconnect();
    motion.removeEventListener("change", apply);
  };
}
