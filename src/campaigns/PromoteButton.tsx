// The close-up's Promote button: shown only to a person who may create campaigns in some ad
// account. The close-up's HTML is shared by every signed-in viewer, so the button asks after
// hydration (nothing is rendered before, on the server or in the first client render) and
// leads to the quick promote page of their first such account with this pin chosen.
import { useEffect, useState } from "react";
import { call } from "~/api/api.client.ts";

interface PromoteButtonProps {
  pinId: string;
  label: string;
}

export default function PromoteButton({ pinId, label }: PromoteButtonProps) {
  const [accountId, setAccountId] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    call<{ items: Array<{ id: string }> }>("/v3/quick_promote/ad_accounts/")
      .then((answer) => {
        if (live) setAccountId(answer.items[0]?.id ?? null);
      })
      // Not a business member, or offline: no button, as for anyone who may not promote.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  if (accountId === null) return null;
  return (
    <a className="button" href={`/advertiser/${accountId}/promote/?pin_id=${encodeURIComponent(pinId)}`}>
      {label}
    </a>
  );
}
