// CountriesResource and LocalesResource get (spec 001 §7: key and name). No options: the
// countries are named in the request's language, the locales each in its own.
import { z } from "zod";
import { countryList, localeList } from "~/regional/regional.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

export const countriesResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({}),
    handle: (c) => Promise.resolve(countryList(c.var.ctx.locale)),
  }),
};

export const localesResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({}),
    handle: () => Promise.resolve(localeList()),
  }),
};
