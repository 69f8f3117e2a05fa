// client:interaction: an island that hydrates the first time a person reaches for it.
//
// Signed-out visitors arriving from search mostly read; shipping React to all of them costs
// ~65 KB of gzip for a button few will press. With this directive the page carries only
// Astro's small island loader; React loads when the pointer goes down on the island, it gets
// focus, or a key is pressed in it. A click that lands before hydration is held and replayed
// on the same element afterwards (React attaches its listeners when hydration starts and
// replays events that arrive during it), so the first press is never lost. The "eager" value
// starts hydration at once instead, keeping the same hold.
import type { ClientDirective } from "astro";

const WARM_UP = ["pointerdown", "touchstart", "focusin", "keydown"] as const;

const interaction: ClientDirective = (load, options, element) => {
  let hydration: Promise<void> | null = null;
  let hydrated = false;

  const hydrate = (): Promise<void> =>
    (hydration ??= (async () => {
      const run = await load();
      await run();
      hydrated = true;
    })());

  const warmUp = () => void hydrate();
  for (const type of WARM_UP) element.addEventListener(type, warmUp, { once: true, passive: true, capture: true });

  const holdClick = (event: Event) => {
    if (hydrated) return;
    const target = event.target;
    event.preventDefault();
    event.stopImmediatePropagation();
    void hydrate().then(() => {
      element.removeEventListener("click", holdClick, true);
      if (target instanceof HTMLElement && target.isConnected) target.click();
    });
  };
  element.addEventListener("click", holdClick, true);
  // client:interaction="eager": hydrate at once (an island that acts on its own at load, such
  // as resuming a save after logging in), still holding a press that lands before it is ready.
  if (options.value === "eager") void hydrate();
};

export default interaction;
