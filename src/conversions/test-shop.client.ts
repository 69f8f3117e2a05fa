// The test page's shop: it installs the tag as an advertiser would (the snippet's queue stub,
// then the script), marked as a test before the script runs so even the page visit is a test
// event, and fires the other events from its buttons.
type Pintrk = ((...args: unknown[]) => void) & { q?: unknown[][] };

export function startTestShop(root: Document): void {
  const shop = root.querySelector<HTMLElement>("[data-tag-shop]");
  if (!shop) return;
  const global = window as unknown as { pintrk?: Pintrk };
  const stub: Pintrk = (...args: unknown[]) => void (stub.q ??= []).push(args);
  global.pintrk ??= stub;
  global.pintrk("init", { consent: false, test: true });
  const script = root.createElement("script");
  script.async = true;
  script.src = shop.dataset["script"] ?? "";
  root.head.appendChild(script);
  const status = shop.querySelector<HTMLElement>("[data-tag-status]");
  for (const button of shop.querySelectorAll<HTMLButtonElement>("[data-tag-event]")) {
    button.addEventListener("click", () => {
      global.pintrk?.("track", button.dataset["tagEvent"], JSON.parse(button.dataset["tagDetails"] ?? "{}"));
      if (status) status.textContent = button.dataset["fired"] ?? "";
    });
  }
}
