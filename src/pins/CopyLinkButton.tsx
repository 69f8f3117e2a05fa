// The pin page's share action: copies the pin's canonical URL and says so in a live region,
// so screen readers hear the result too.
import { useState } from "react";

export interface CopyLinkButtonProps {
  url: string;
  labels: { copy: string; copied: string; failed: string };
}

type CopyState = "idle" | "copied" | "failed";

export default function CopyLinkButton({ url, labels }: CopyLinkButtonProps) {
  const [state, setState] = useState<CopyState>("idle");

  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
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
