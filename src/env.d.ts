/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    ctx: import("./context/request-context.ts").RequestContext;
    t: import("i18next").TFunction;
  }
}
