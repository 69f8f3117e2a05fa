// Runs on a pin landing page that carries an invite code (InviteMount.astro imports it only
// then, so visitors without one never download it). Looks the invite up, then shows the
// messaging toast through the app shell or the inviter popover, per spec 000 §6.
import { inviteCodeFromSearch, inviteDisplay, isDesktopViewer, isInviteCode, type InviteMetadata, type ViewerType } from "./invite.ts";
import { clearInvite, lookupInvite } from "./store.ts";
import { showToast } from "~/shell/toast-event.ts";

/** What the landing reads of the embedded request context (src/context/request-context.ts). */
interface EmbeddedContext {
  loginState?: ViewerType;
  inviteCode?: string | null;
  viewer?: { id?: string; should_show_messaging?: boolean } | null;
  userAgent?: { isMobile?: boolean; isTablet?: boolean };
}

function readContext(): EmbeddedContext {
  try {
    return JSON.parse(document.getElementById("pinloom-context")?.textContent ?? "{}") as EmbeddedContext;
  } catch {
    return {};
  }
}

const fill = (template: string, name: string) => template.split("%NAME%").join(name);

function showPopover(mount: HTMLElement, invite: InviteMetadata): void {
  const labels = mount.dataset;
  const name = invite.sender.full_name.trim() || invite.sender.first_name.trim();
  if (!name) return;
  const popover = document.createElement("section");
  popover.className = "invite-popover";
  popover.setAttribute("role", "dialog");
  popover.setAttribute("aria-labelledby", "invite-popover-title");
  popover.setAttribute("aria-describedby", "invite-popover-text");
  if (invite.sender.image_medium_url) {
    const avatar = document.createElement("img");
    avatar.className = "invite-avatar";
    avatar.src = invite.sender.image_medium_url;
    avatar.alt = "";
    avatar.width = 48;
    avatar.height = 48;
    popover.appendChild(avatar);
  }
  const body = document.createElement("div");
  const title = document.createElement("h2");
  title.id = "invite-popover-title";
  title.dir = "auto";
  title.textContent = fill(labels["title"] ?? "", name);
  const text = document.createElement("p");
  text.id = "invite-popover-text";
  text.textContent = labels["text"] ?? "";
  body.appendChild(title);
  body.appendChild(text);
  const dismiss = document.createElement("button");
  dismiss.type = "button";
  dismiss.className = "button invite-dismiss";
  dismiss.textContent = labels["dismiss"] ?? "";
  popover.appendChild(body);
  popover.appendChild(dismiss);

  const close = () => {
    const hadFocus = popover.contains(document.activeElement);
    popover.remove();
    clearInvite();
    // Focus never falls to nowhere: it goes to the pin's heading, the page's own start.
    const heading = document.getElementById("pin-title");
    if (hadFocus && heading) {
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    }
  };
  dismiss.addEventListener("click", close);
  popover.addEventListener("keydown", (event) => {
    if (event.key === "Escape") close();
  });
  mount.replaceChildren();
  mount.appendChild(popover);
  mount.hidden = false;
}

export async function start(mount: HTMLElement | null = document.getElementById("invite-mount")): Promise<void> {
  if (!mount) return;
  const context = readContext();
  // Personal renders embed the code; shared (edge-cached) ones leave it to the URL.
  const code = isInviteCode(context.inviteCode) ? context.inviteCode : inviteCodeFromSearch(location.search);
  if (!code) return;
  const invite = await lookupInvite(code);
  const display = inviteDisplay({
    viewerType: context.loginState ?? "UNAUTH",
    isDesktop: isDesktopViewer(innerWidth, context.userAgent),
    viewerId: context.viewer?.id ?? null,
    viewerShowsMessaging: context.viewer?.should_show_messaging === true,
    invite,
  });
  if (!invite || display === null) return;
  const name = invite.sender.first_name.trim() || invite.sender.full_name.trim();
  if (display === "toast" && name) {
    // Its action starts a message to the inviter (the inbox page, the inviter already chosen).
    const to = `/messages/?to=${encodeURIComponent(invite.sender.id)}`;
    showToast({ id: "invite", message: fill(mount.dataset["toast"] ?? "", name), action: { label: fill(mount.dataset["message"] ?? "", name), run: () => location.assign(to) } });
  } else if (display === "popover") {
    showPopover(mount, invite);
  }
}
