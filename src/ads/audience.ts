// Who may be shown promoted pins at all (docs/decisions.md, "Promoted pins and ad results"): a
// person in a real browser, signed in with a full login or signed out (crawlers, search caches
// and server-only requests get organic HTML only), whose marketing consent allows it where the
// law asks first. A signed-out render is shared through the edge cache with everyone, so it
// holds no promoted pin itself: the page asks for its promoted cells afterwards. Pure, so the
// rule is tested directly.
import { allows, type ConsentState } from "~/consent/consent.ts";

interface AudienceFacts {
  viewerType: "AUTH" | "UNAUTH" | "LIMITED_LOGIN";
  isBot: boolean;
  noClientScript: boolean;
  consent: ConsentState;
}

export function mayServeAds(facts: AudienceFacts): boolean {
  return facts.viewerType !== "LIMITED_LOGIN" && !facts.isBot && !facts.noClientScript && allows(facts.consent, "marketing");
}
