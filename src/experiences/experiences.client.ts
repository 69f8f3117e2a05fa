// The page's experiences in the browser: one store for the page (store.ts), the placements the
// page offers (<div data-experience-placement> from ExperienceSlot.astro, each holding a
// <template data-experience-id> per experience it can show) and the footer check. An experience
// the platform answers is shown from its template, its impression tracked (impression.ts) and
// then recorded as viewed; its buttons complete or dismiss it, which removes it.
import { call } from "~/api/api.client.ts";
import { runtimeGlobal } from "~/runtime/global.ts";
import { PLACEMENT, hidesFooter, type Experience } from "./experiences.ts";
import { trackImpression, type ImpressionTracker } from "./impression.ts";
import { createExperienceStore, resourceApi } from "./store.ts";

export const experiences = createExperienceStore(resourceApi());

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** The placements asked for: from GET /_/_/state's answer when the page has it, else one call. */
export async function loadPlacements(placementIds: readonly number[]): Promise<void> {
  const fromState = runtimeGlobal().state?.["experiences"];
  if (isRecord(fromState)) experiences.seed(fromState, placementIds);
  await experiences.load(placementIds);
}

/** Records the view once the experience has been in front of the person long enough. */
export function viewWhenSeen(placed: string): ImpressionTracker {
  return trackImpression(window, document.hasFocus(), () => {
    void experiences.markViewed(placed).catch(() => undefined);
  });
}

/** Makes eligible the experiences this one names (spec 002 §7 trigger), after it completes. */
async function triggerFollowing(experience: Experience): Promise<void> {
  await Promise.all(
    experience.triggerable_placed_exps.map((placed) =>
      call(`/v3/experiences/${encodeURIComponent(placed)}/trigger/`, { method: "PUT", body: { json: {} } }).catch(() => undefined),
    ),
  );
}


function show(slot: HTMLElement, experience: Experience): void {
  const template = slot.querySelector<HTMLTemplateElement>(`template[data-experience-id="${experience.experience_id}"]`);
  if (!template) return;
  const content = template.content.firstElementChild?.cloneNode(true);
  if (!(content instanceof HTMLElement)) return;
  content.dataset["placedExperience"] = experience.placed_experience_id;
  slot.appendChild(content);
  slot.hidden = false;
  const tracker = viewWhenSeen(experience.placed_experience_id);
  const error = content.querySelector<HTMLElement>("[data-experience-error]");
  const unsubscribe = experiences.$experiences.subscribe((all) => {
    if (all[String(experience.placement_id)]) return;
    // Completed or dismissed: gone from the store, so from the page.
    tracker.stop();
    content.remove();
    slot.hidden = true;
    queueMicrotask(() => unsubscribe());
  });
  for (const control of content.querySelectorAll<HTMLElement>("[data-experience-action]")) {
    control.addEventListener("click", (event) => {
      const action = control.dataset["experienceAction"];
      const href = control instanceof HTMLAnchorElement ? control.href : null;
      if (href) event.preventDefault();
      control.setAttribute("aria-disabled", "true");
      if (error) error.hidden = true;
      const done = action === "dismiss" ? experiences.dismiss(experience.placed_experience_id) : experiences.complete(experience.placed_experience_id).then(() => triggerFollowing(experience));
      done.then(
        () => {
          if (href) location.assign(href);
        },
        () => {
          control.removeAttribute("aria-disabled");
          // A link still goes where it leads; a button says it did not work.
          if (href) location.assign(href);
          else if (error) error.hidden = false;
        },
      );
    });
  }
}

/**
 * The footer check (spec 002 §7): the footer experience (1000069:500417, display data
 * hide_footer) hides the footer, then its view is recorded.
 */
function footerCheck(footer: HTMLElement): void {
  const experience = experiences.experienceIn(PLACEMENT.FOOTER);
  if (!experience || !hidesFooter(experience)) return;
  footer.hidden = true;
  void experiences.markViewed(experience.placed_experience_id).catch(() => undefined);
}

export async function startExperiences(doc: Document = document): Promise<void> {
  const slots = Array.from(doc.querySelectorAll<HTMLElement>("[data-experience-placement]"));
  const footer = doc.querySelector<HTMLElement>("[data-experience-footer]");
  const ids = slots.map((slot) => Number(slot.dataset["experiencePlacement"])).filter((id) => Number.isSafeInteger(id) && id > 0);
  if (footer) ids.push(PLACEMENT.FOOTER);
  if (ids.length === 0) return;
  try {
    await loadPlacements(ids);
  } catch {
    // No experiences this time: the page is whole without them.
    return;
  }
  for (const slot of slots) {
    const experience = experiences.experienceIn(Number(slot.dataset["experiencePlacement"]));
    if (experience) show(slot, experience);
  }
  if (footer) footerCheck(footer);
}
