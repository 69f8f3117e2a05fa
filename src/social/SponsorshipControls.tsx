// A sponsored pin's partnership controls, rendered only for its creator or sponsor (spec 001
// §4 "Pin sponsorship", §6): approve, decline, remove the sponsor, remove the partnership.
import { useStore } from "@nanostores/react";
import { useState } from "react";
import type { SponsorshipAction, SponsorshipView } from "./sponsorship.ts";
import { $sponsorships, actOnSponsorship, seed, type Person } from "./store.ts";

export interface SponsorshipControlsProps {
  pinId: string;
  initial: SponsorshipView<Person>;
  /** "Creator with Sponsor" and "Creator" alone, already formatted by the server. */
  labels: {
    heading: string;
    withSponsor: string;
    creatorOnly: string;
    status: Record<"0" | "1" | "2" | "3", string>;
    approve: string;
    decline: string;
    removeSponsor: string;
    removePartnership: string;
    removed: string;
    failed: string;
  };
}

export default function SponsorshipControls({ pinId, initial, labels }: SponsorshipControlsProps) {
  useState(() => seed($sponsorships, pinId, initial));
  const stored = useStore($sponsorships);
  const state = pinId in stored ? (stored[pinId] ?? null) : initial;
  const [busy, setBusy] = useState(false);
  const act = async (action: SponsorshipAction) => {
    setBusy(true);
    await actOnSponsorship(pinId, action, labels.failed);
    setBusy(false);
  };
  if (state === null) {
    return (
      <p role="status" className="social-status" data-hydrated="true">
        {labels.removed}
      </p>
    );
  }
  const actions: Array<[SponsorshipAction, string, boolean]> = [
    ["approve", labels.approve, state.status === 1],
    ["decline", labels.decline, state.sponsor === null],
    ["delete_sponsor", labels.removeSponsor, state.sponsor === null],
    ["delete_creator", labels.removePartnership, false],
  ];
  return (
    <div className="social-sponsorship" data-hydrated="true">
      <p>
        {state.sponsor ? labels.withSponsor : labels.creatorOnly} · <span role="status">{labels.status[String(state.status) as "0"]}</span>
      </p>
      <div className="social-sponsorship-actions">
        {actions.map(([action, label, hidden]) =>
          hidden ? null : (
            <button key={action} type="button" className="button small" disabled={busy} onClick={() => void act(action)}>
              {label}
            </button>
          ),
        )}
      </div>
    </div>
  );
}
