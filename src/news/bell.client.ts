// The header bell in the browser: the unseen count on its badge (asked once the page starts,
// again when the tab comes back after a while, and told live by the person's channel), and on a
// wide screen the updates as a dropdown, marked seen once shown. On a phone the link goes to the
// updates page.
import { resource } from "~/api/api.client.ts";
import { NEWS_COUNT_EVENT, NEWS_SEEN_EVENT } from "./news.ts";
import { badgeText, type ShownNewsItem } from "./news-view.ts";

interface BellStrings {
  label: string;
  labelCount: string;
  empty: string;
  failed: string;
  loading: string;
  new: string;
}

interface DetailsAnswer {
  results: ShownNewsItem[];
  newest_id: string | null;
}

/** The spec's small breakpoint: under 768 px the bell is a link to the page. */
const WIDE = "(min-width: 768px)";
/** A tab coming back after this long asks for the count again. */
const REFRESH_AFTER_MS = 60_000;

function itemElement(item: ShownNewsItem, strings: BellStrings, language: string): HTMLLIElement {
  const li = document.createElement("li");
  li.className = item.unseen ? "news-item is-unseen" : "news-item";
  const box = item.url ? Object.assign(document.createElement("a"), { href: item.url }) : document.createElement("div");
  box.className = "news-item-box";
  if (item.pin?.image_url || item.actor?.image_medium_url) {
    const image = document.createElement("img");
    image.src = item.pin?.image_url ?? item.actor?.image_medium_url ?? "";
    image.alt = "";
    image.width = 48;
    image.height = 48;
    image.className = "news-thumb";
    box.appendChild(image);
  }
  const body = document.createElement("span");
  body.className = "news-item-body";
  const text = document.createElement("span");
  text.className = "news-text";
  text.textContent = item.text;
  const time = document.createElement("time");
  time.dateTime = new Date(item.created_at).toISOString();
  time.textContent = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(item.created_at);
  body.appendChild(text);
  body.appendChild(time);
  if (item.unseen) {
    const mark = document.createElement("span");
    mark.className = "news-new";
    mark.textContent = strings.new;
    body.appendChild(mark);
  }
  box.appendChild(body);
  li.appendChild(box);
  return li;
}

export function wireNewsBell(root: ParentNode = document): void {
  const bell = root.querySelector<HTMLElement>("[data-news-bell]");
  const link = bell?.querySelector<HTMLAnchorElement>("[data-news-open]");
  const badge = bell?.querySelector<HTMLElement>("[data-news-count]");
  const panel = bell?.querySelector<HTMLElement>("[data-news-panel]");
  if (!bell || !link || !badge || !panel) return;
  const strings = JSON.parse(link.dataset["strings"] ?? "{}") as BellStrings;
  const status = panel.querySelector<HTMLElement>("[data-news-status]")!;
  const list = panel.querySelector<HTMLElement>("[data-news-list]")!;
  const heading = panel.querySelector<HTMLElement>("h2")!;
  const language = document.documentElement.lang || "en";
  let askedAt = 0;

  const showCount = (count: number) => {
    const text = badgeText(count);
    badge.hidden = text === "";
    badge.textContent = text;
    link.setAttribute("aria-label", text === "" ? strings.label : strings.labelCount.replace("{{count}}", text));
  };
  // An answer asked for before the latest "seen" is stale: it must not bring the old count back.
  let seenGeneration = 0;
  const askCount = () => {
    askedAt = Date.now();
    const generation = seenGeneration;
    resource<{ news_hub_unseen_count: number }>("NewsHubBadgeResource", "get", {}).then(
      (answer) => generation === seenGeneration && showCount(answer.news_hub_unseen_count),
      // The badge is a hint: a failed ask leaves it as it was.
      () => undefined,
    );
  };
  askCount();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && Date.now() - askedAt > REFRESH_AFTER_MS) askCount();
  });
  // The updates page marked everything it showed seen (anything newer keeps counting on the next ask).
  addEventListener(NEWS_SEEN_EVENT, () => {
    seenGeneration++;
    showCount(0);
  });
  // The person's live channel told the count as it stands now (news arrived, or another tab saw it).
  addEventListener(NEWS_COUNT_EVENT, (event) => {
    const count = (event as CustomEvent<unknown>).detail;
    if (typeof count !== "number") return;
    seenGeneration++;
    showCount(count);
  });

  const setOpen = (open: boolean) => {
    panel.hidden = !open;
    link.setAttribute("aria-expanded", String(open));
  };
  const load = async () => {
    status.textContent = strings.loading;
    list.replaceChildren();
    try {
      const answer = await resource<DetailsAnswer>("NewsHubDetailsResource", "get", {});
      list.replaceChildren(...answer.results.map((item) => itemElement(item, strings, language)));
      status.textContent = answer.results.length === 0 ? strings.empty : "";
      // Shown, so seen: up to the newest shown (anything newer stays unseen).
      if (answer.newest_id !== null && answer.results.some((item) => item.unseen)) {
        const after = await resource<{ news_hub_unseen_count: number }>("NewsHubBadgeResource", "update", { seen_up_to: answer.newest_id });
        seenGeneration++;
        showCount(after.news_hub_unseen_count);
      }
    } catch {
      status.textContent = strings.failed;
    }
  };

  link.setAttribute("aria-controls", panel.id);
  link.setAttribute("aria-expanded", "false");
  link.addEventListener("click", (event) => {
    if (!matchMedia(WIDE).matches) return;
    event.preventDefault();
    const open = panel.hidden !== false;
    setOpen(open);
    if (open) {
      heading.focus();
      void load();
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !panel.hidden) {
      setOpen(false);
      link.focus();
    }
  });
  document.addEventListener("pointerdown", (event) => {
    if (!panel.hidden && !bell.contains(event.target as Node)) setOpen(false);
  });
}
