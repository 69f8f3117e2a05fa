// Cloudflare Turnstile in the browser: the widget whose token the sign-up sends as
// recaptcha_v3_token (spec 000 §3 signup payload) and the server checks with Siteverify
// (src/accounts/providers/turnstile.server.ts). Only pages of a site that configured
// TURNSTILE_SITE_KEY render it, and only those pages allow its origin in their CSP.
// https://developers.cloudflare.com/turnstile/get-started/client-side-rendering/

export const TURNSTILE_ORIGIN = "https://challenges.cloudflare.com";
const TURNSTILE_SCRIPT = `${TURNSTILE_ORIGIN}/turnstile/v0/api.js?render=explicit`;

interface TurnstileOptions {
  sitekey: string;
  language?: string;
  callback: (token: string) => void;
  "expired-callback"?: () => void;
  "error-callback"?: () => void;
}

interface TurnstileApi {
  render(container: HTMLElement, options: TurnstileOptions): string | undefined;
  remove(widgetId: string): void;
}

let loading: Promise<TurnstileApi> | null = null;

/** Loads Turnstile's script once per page; rejects when it cannot (the form then says so). */
function loadTurnstile(doc: Document = document): Promise<TurnstileApi> {
  const ready = () => (window as unknown as { turnstile?: TurnstileApi }).turnstile;
  const existing = ready();
  if (existing) return Promise.resolve(existing);
  loading ??= new Promise<TurnstileApi>((resolve, reject) => {
    const script = doc.createElement("script");
    script.src = TURNSTILE_SCRIPT;
    script.async = true;
    script.addEventListener("load", () => {
      const api = ready();
      if (api) resolve(api);
      else reject(new Error("Turnstile loaded without its API"));
    });
    script.addEventListener("error", () => {
      loading = null;
      reject(new Error("Turnstile could not be loaded"));
    });
    doc.head.appendChild(script);
  });
  return loading;
}

/**
 * Renders the widget into `container`; `onToken` gets the token, then null when it expires or
 * fails. Answers the clean-up for the component that owns the container.
 */
export function mountTurnstile(container: HTMLElement, siteKey: string, language: string, onToken: (token: string | null) => void): () => void {
  let widgetId: string | undefined;
  let stopped = false;
  loadTurnstile().then(
    (api) => {
      if (stopped) return;
      widgetId = api.render(container, {
        sitekey: siteKey,
        language,
        callback: (token) => onToken(token),
        "expired-callback": () => onToken(null),
        "error-callback": () => onToken(null),
      });
    },
    () => onToken(null),
  );
  return () => {
    stopped = true;
    const api = (window as unknown as { turnstile?: TurnstileApi }).turnstile;
    if (widgetId !== undefined && api) api.remove(widgetId);
  };
}
