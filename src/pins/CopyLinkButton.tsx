// The pin page's share action: copies the pin's canonical URL and says so in a live region,
// so screen readers hear the result too. A signed-in viewer's link carries a fresh invite
// code (src/invites/invite-link.ts); signed out, the plain link.
import { useState } from "react";
import { isSignedIn, shareLink } from "~/invites/invite-link.ts";

export interface CopyLinkButtonProps {
  url: string;
  labels: { copy: string; copied: string; failed: string };
}

type CopyState = "idle" | "copied" | "failed";

/**
 * Writes a link that is still being minted. ClipboardItem takes a promise, so the write stays
 * tied to the click that asked for it (Safari refuses a write after an await); browsers
 * without it get the finished text.
 */
async function writeLink(link: Promise<string>): Promise<void> {
  if (typeof ClipboardItem !== "undefined" && typeof navigator.clipboard.write === "function") {
    const blob = link.then((text) => new Blob([text], { type: "text/plain" }));
    await navigator.clipboard.write([new ClipboardItem({ "text/plain": blob })]);
    return;
  }
  await navigator.clipboard.writeText(await link);
}

export default function CopyLinkButton({ url, labels }: CopyLinkButtonProps) {
  const [state, setState] = useState<CopyState>("idle");

  async function copy() {
    try {
      if (isSignedIn()) await writeLink(shareLink(url, fetch, document.cookie));
      else await navigator.clipboard.writeText(url);
      setState("copied");
    } catch {
      setState("failed");
    }
  }

  return (
    <span className="copy-link">
      <button type="button" className="button" onClick={() => void copy()} data-hydrated="true">
        {labels.copy}
      </button>
      <span role="status" aria-live="polite" className="copy-link-status">
        {state === "copied" ? labels.copied : state === "failed" ? labels.failed : ""}
      </span>
    </span>
  );
}
