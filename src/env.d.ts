/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    ctx: import("./context/request-context.ts").RequestContext;
    t: import("i18next").TFunction;
  }
}

declare namespace astroHTML.JSX {
  interface IntrinsicAttributes {
    /** Hydrate the island on first interaction (src/islands/interaction-directive.ts). */
    "client:interaction"?: boolean;
  }
}
