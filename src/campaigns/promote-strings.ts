// The quick promote island's words, translated on the server (islands carry no translation
// tables). Placeholders stay as {{name}} for the island to fill (fill, src/saves/strings.ts).
import type { TFunction } from "i18next";

const KEPT = Object.fromEntries(["minimum", "maximum", "currency", "name", "date", "status"].map((name) => [name, `{{${name}}}`]));

type Tree = { [key: string]: string | Tree };

export interface PromoteStrings {
  promote: Tree;
  validation: Record<string, string>;
}

export function promoteStrings(t: TFunction): PromoteStrings {
  return {
    promote: t("campaigns:promote", { returnObjects: true, ...KEPT }) as unknown as Tree,
    validation: t("campaigns:validation", { returnObjects: true, ...KEPT }) as unknown as Record<string, string>,
  };
}

/** A string of the tree by its dotted path ("" when absent, so a missing word never breaks the form). */
export function word(tree: Tree, path: string): string {
  let node: string | Tree | undefined = tree;
  for (const key of path.split(".")) node = typeof node === "object" ? node[key] : undefined;
  return typeof node === "string" ? node : "";
}
