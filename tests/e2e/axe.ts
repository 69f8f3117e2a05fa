// axe on the page as it stands, its violations listed by rule and element: one helper for the
// journeys that check their own views (the site-wide sweep settles images first: accessibility.spec.ts).
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

export async function expectNoViolations(page: Page, what: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(
    violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`),
    `axe on ${what}`,
  ).toEqual([]);
}
