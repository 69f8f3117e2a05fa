// The experience platform's resources (spec 002 §7): UserExperiencePlatformResource get (every
// placement), UserExperienceResource get (the placements asked) and delete (dismiss),
// UserExperienceViewedResource and UserExperienceCompletedResource update. The answers of the
// gets are keyed by placement id; bots get none (spec 002 §6).
import { experienceGetOptions, experienceWriteOptions, platformGetOptions } from "~/experiences/experiences.ts";
import { experiencesFor, recordChange } from "~/experiences/experiences.server.ts";
import { experienceViewer } from "../experiences.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

/** extra_context's flag for a completion that skipped the home feed (status completedWithoutHomefeed). */
const WITHOUT_HOMEFEED = "completed_without_homefeed";

export const userExperiencePlatformResource: ResourceDefinition = {
  get: defineHandler({
    options: platformGetOptions,
    handle: async (c, options) => experiencesFor(c.env.DB, experienceViewer(c), null, options.multiExperiencePlatform === true),
  }),
};

export const userExperienceResource: ResourceDefinition = {
  get: defineHandler({
    options: experienceGetOptions,
    async handle(c, options) {
      const placements = await experiencesFor(c.env.DB, experienceViewer(c), [...new Set(options.placement_ids)]);
      // One experience per placement: the one to show.
      return Object.fromEntries(Object.entries(placements).map(([placement, list]) => [placement, list[0]]));
    },
  }),
  delete: defineHandler({
    options: experienceWriteOptions,
    handle: async (c, options) => recordChange(c.env.DB, experienceViewer(c), options.placed_experience_id, "dismissed", { extraContext: options.extra_context }),
  }),
};

export const userExperienceViewedResource: ResourceDefinition = {
  update: defineHandler({
    options: experienceWriteOptions,
    handle: async (c, options) => recordChange(c.env.DB, experienceViewer(c), options.placed_experience_id, "viewed", { extraContext: options.extra_context }),
  }),
};

export const userExperienceCompletedResource: ResourceDefinition = {
  update: defineHandler({
    options: experienceWriteOptions,
    handle: async (c, options) =>
      recordChange(c.env.DB, experienceViewer(c), options.placed_experience_id, "completed", {
        extraContext: options.extra_context,
        withoutHomefeed: options.extra_context?.[WITHOUT_HOMEFEED] === true,
      }),
  }),
};
