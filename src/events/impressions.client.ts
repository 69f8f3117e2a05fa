// Pin impressions (spec 000 §4): a pin counts once per page when at least half of its cell is
// on screen while the window has focus. Blur pauses counting; focus resumes it, and the cells
// still on screen then count.
export const IMPRESSIONS = { visibleRatio: 0.5, maxPerPage: 1_000 } as const;

export class ImpressionTracker {
  private readonly visible = new Set<string>();
  private readonly counted = new Set<string>();
  private paused = false;

  constructor(private readonly onImpression: (pinId: string) => void) {}

  enter(pinId: string): void {
    this.visible.add(pinId);
    if (!this.paused) this.count(pinId);
  }

  leave(pinId: string): void {
    this.visible.delete(pinId);
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    for (const pinId of this.visible) this.count(pinId);
  }

  get isPaused(): boolean {
    return this.paused;
  }

  private count(pinId: string): void {
    if (this.counted.has(pinId) || this.counted.size >= IMPRESSIONS.maxPerPage) return;
    this.counted.add(pinId);
    this.onImpression(pinId);
  }
}
