// Whether the island has hydrated: false in the server render (and the first client render that
// matches it), true after. Controls that need the island's code are inert until then, so a
// click before hydration is never silently lost.
import { useSyncExternalStore } from "react";

const subscribe = () => () => undefined;

export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
