// The sign-up prompt for signed-out people (those arriving from a search engine above all): the
// page shows at once, and the prompt appears only after they scroll or try to act (save,
// comment). It never covers the content: a small card that can be dismissed for the session.

/** Scrolled this many viewport heights: the visitor is reading on, ask them to join. */
export const PROMPT_SCROLL_VIEWPORTS = 1.2;
export const PROMPT_DISMISSED_KEY = "pinloom_signup_prompt_dismissed";
/** Islands dispatch this on `window` when a signed-out person tries to save or comment. */
export const ACT_EVENT = "pinloom:signed-out-act";

export interface PromptFacts {
  scrollY: number;
  viewportHeight: number;
  acted: boolean;
  dismissed: boolean;
}

export function shouldPrompt({ scrollY, viewportHeight, acted, dismissed }: PromptFacts): boolean {
  if (dismissed) return false;
  if (acted) return true;
  return viewportHeight > 0 && scrollY >= viewportHeight * PROMPT_SCROLL_VIEWPORTS;
}

/** `/signup/?next=<here>`: the path and query of the page the visitor is reading. */
export function withNext(target: "/signup/" | "/login/", location: { pathname: string; search: string }): string {
  const next = location.pathname + location.search;
  return next === "/" ? target : `${target}?next=${encodeURIComponent(next)}`;
}
