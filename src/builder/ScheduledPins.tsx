// The person's scheduled pins (ScheduledPinsResource get), soonest first, each with a Cancel.
import { useEffect, useId, useState } from "react";
import { fill } from "~/saves/strings.ts";
import type { UiKey } from "./strings.ts";
import { cancelScheduled, listScheduled, type ScheduledPin } from "./api.client.ts";
import { draftTitle } from "./DraftList.tsx";

type Load = { state: "loading" } | { state: "ready"; pins: ScheduledPin[] } | { state: "failed" };

export function ScheduledPins({ ui, formatTime, refresh }: { ui: Record<UiKey, string>; formatTime: (ms: number) => string; refresh: number }) {
  const id = useId();
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    listScheduled().then(
      (pins) => live && setLoad({ state: "ready", pins }),
      () => live && setLoad({ state: "failed" }),
    );
    return () => {
      live = false;
    };
  }, [refresh]);
  const cancel = async (pin: ScheduledPin) => {
    setError(null);
    try {
      await cancelScheduled(pin.id);
      setLoad((before) => (before.state === "ready" ? { state: "ready", pins: before.pins.filter((each) => each.id !== pin.id) } : before));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  };
  return (
    <section className="builder-scheduled" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{ui.scheduledHeading}</h2>
      {load.state === "loading" && <p>{ui.loading}</p>}
      {load.state === "failed" && <p>{ui.scheduledFailed}</p>}
      {load.state === "ready" && load.pins.length === 0 && <p>{ui.noScheduled}</p>}
      {load.state === "ready" && load.pins.length > 0 && (
        <ul className="builder-scheduled-list">
          {load.pins.map((pin) => {
            const title = draftTitle(ui, pin);
            return (
              <li key={pin.id} data-testid="scheduled-pin">
                {pin.image_url && <img src={pin.image_url} alt="" />}
                <div>
                  <p>
                    <bdi>{title}</bdi>
                  </p>
                  <p className="builder-hint">
                    <time dateTime={new Date(pin.scheduled_ts).toISOString()}>{fill(ui.scheduledAt, { time: formatTime(pin.scheduled_ts), board: pin.board?.name ?? "" })}</time>
                  </p>
                </div>
                <button type="button" className="button builder-small" aria-label={fill(ui.cancelScheduled, { title })} onClick={() => void cancel(pin)}>
                  {ui.cancel}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {error && (
        <p className="builder-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
