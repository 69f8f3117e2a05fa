// The inline view-state script for a page, with its hash added to the page's CSP. Call from a
// page's frontmatter (Astro sends the CSP header before nested components render).
import { sha256Base64 } from "~/components/placeholder-styles.ts";
import { VIEW_STATE_SCRIPT } from "./view-state.ts";

/** The page's CSP (Astro.csp), by what this needs of it. */
interface ScriptHashes {
  insertScriptHash: (hash: `sha256-${string}`) => void;
}

/** The script, or "" for pages that carry no script (crawlers, cache hosts, server_only). */
export async function viewStateScript(csp: ScriptHashes | undefined, noClientScript: boolean): Promise<string> {
  if (noClientScript) return "";
  if (csp) csp.insertScriptHash(`sha256-${await sha256Base64(VIEW_STATE_SCRIPT)}`);
  return VIEW_STATE_SCRIPT;
}
