// The signed-in header's account menu: avatar and name opening a panel with this device's
// accounts (switch in one click: the server starts the other account's session and the page
// reloads where it is), Add account (the login modal), Settings and Log out. An account whose
// session on this device has expired is listed as such, and choosing it opens the login form
// filled in for it. A limited-login viewer sees their limited viewer and a prompt to finish
// logging in.
import { useEffect, useId, useRef, useState } from "react";
import { fill, type AuthStrings } from "./auth-strings.ts";
import { AuthDialog, type AuthMode } from "./AuthModal.tsx";
import { $accounts, loadAccounts, setAccounts, useAccounts, type SwitcherEntry } from "./accounts-store.client.ts";
import { ApiCallError } from "~/api/api.client.ts";
import { passwordAskedFor, sessionAccounts, signOut, switchAccount } from "./session.client.ts";
import { perViewer } from "~/member-page/viewer-values.ts";
import { pageStrings } from "~/i18n/page-strings.ts";

interface MenuViewer {
  id: string | null;
  name: string;
  username: string | null;
  imageUrl: string | null;
}

interface AccountMenuProps {
  viewer: MenuViewer;
  limited: boolean;
  /** Given, or the page's copy (src/i18n/page-strings.ts). */
  strings?: AuthStrings;
  country: string;
  locale: string;
}

function sessionFlags(): Pick<Storage, "getItem" | "setItem" | "removeItem"> {
  try {
    return sessionStorage;
  } catch {
    const map = new Map<string, string>();
    return { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k) };
  }
}

function Avatar({ url, name }: { url: string | null; name: string }) {
  return url ? (
    <img className="account-avatar" src={url} alt="" width={32} height={32} />
  ) : (
    // The initial is drawn by CSS (attr(data-initial)): as a text node it would count as the
    // button's visible text, which then no longer starts its accessible name (axe
    // label-content-name-mismatch), for every account without a picture.
    <span className="account-avatar account-avatar-initial" aria-hidden="true" data-initial={name.slice(0, 1).toUpperCase()} />
  );
}

function AccountMenu({ viewer, limited, country, locale, ...given }: AccountMenuProps) {
  const strings = given.strings ?? pageStrings("auth", locale);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dialog, setDialog] = useState<AuthMode | null>(null);
  const [again, setAgain] = useState<{ usernameOrEmail: string; notice: string } | null>(null);
  const accounts = useAccounts();
  const panelId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);

  // The stored list shows at once; the server's list replaces it.
  useEffect(() => {
    if (!open || limited) return;
    if ($accounts.get().length === 0) loadAccounts();
    let live = true;
    sessionAccounts()
      .then((list) => live && setAccounts(list, viewer.id))
      .catch((cause: unknown) => console.warn("session accounts failed", cause));
    return () => {
      live = false;
    };
  }, [open, limited, viewer.id]);

  // Escape and a click outside close the panel.
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && dialog === null) {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    const onPointer = (event: PointerEvent) => {
      if (dialog === null && !rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, [open, dialog]);

  function logInAgain(usernameOrEmail: string) {
    setAgain({ usernameOrEmail, notice: fill(strings.login.sessionEnded, { username: usernameOrEmail }) });
    setDialog("login");
  }

  async function switchTo(entry: SwitcherEntry) {
    if (!entry.isLoggedIn) return logInAgain(entry.username);
    setBusy(entry.id);
    setError(null);
    try {
      setAccounts(await switchAccount(entry.id), entry.id);
      window.location.reload();
    } catch (cause) {
      setBusy(null);
      const asked = passwordAskedFor(cause, entry.username);
      if (asked !== null) logInAgain(asked);
      // The server's words when it said why (not on this device, the device just changed).
      else setError(cause instanceof ApiCallError && cause.code !== null && cause.message ? cause.message : strings.error.default);
    }
  }

  async function logOut() {
    setBusy("logout");
    setError(null);
    try {
      await signOut({}, { flags: sessionFlags(), navigate: (url) => window.location.assign(url) });
      setAccounts($accounts.get().filter((entry) => entry.id !== viewer.id));
    } catch {
      setBusy(null);
      setError(strings.error.default);
    }
  }

  const others = (entry: SwitcherEntry) => entry.id !== viewer.id;
  const row = (entry: SwitcherEntry, isBusiness: boolean) => {
    const current = entry.id === viewer.id;
    const label = entry.fullName || entry.username;
    return (
      <li key={entry.id}>
        {current ? (
          <span className="account-row" aria-current="true">
            <Avatar url={entry.imageMediumUrl} name={label} />
            <span className="account-row-text">
              <span className="account-row-name">{label}</span>
              <span className="account-row-meta">{isBusiness || entry.partner ? strings.header.business : strings.header.current}</span>
            </span>
          </span>
        ) : (
          <button
            type="button"
            className="account-row"
            disabled={busy !== null}
            onClick={() => void switchTo(entry)}
            aria-label={fill(entry.isLoggedIn ? strings.header.switchTo : strings.header.logInAgainAs, { name: label })}
          >
            <Avatar url={entry.imageMediumUrl} name={label} />
            <span className="account-row-text">
              <span className="account-row-name">{label}</span>
              <span className="account-row-meta">
                {busy === entry.id ? strings.header.switching : !entry.isLoggedIn ? strings.header.logInAgain : isBusiness || entry.partner ? strings.header.business : `@${entry.username}`}
              </span>
            </span>
          </button>
        )}
        {entry.businesses.length > 0 && <ul className="account-businesses">{entry.businesses.map((business) => row(business, true))}</ul>}
      </li>
    );
  };
  const listed = accounts.some((entry) => entry.id === viewer.id) ? accounts : accounts.filter(others);

  return (
    <div className="account-menu" ref={rootRef}>
      <button ref={buttonRef} type="button" className="account-button" aria-expanded={open} aria-controls={panelId} aria-label={`${viewer.name} · ${strings.header.menu}`} onClick={() => setOpen(!open)}>
        <Avatar url={viewer.imageUrl} name={viewer.name} />
        <span className="account-name wide-label">{viewer.name}</span>
      </button>
      <div className="account-panel" id={panelId} hidden={!open}>
        {limited ? (
          <>
            <p className="account-limited">{strings.header.limitedPrompt}</p>
            <button type="button" className="button primary" onClick={() => setDialog("login")}>
              {strings.header.finishLogin}
            </button>
          </>
        ) : (
          <section aria-labelledby={`${panelId}-accounts`}>
            <h2 className="account-heading" id={`${panelId}-accounts`}>
              {strings.header.accounts}
            </h2>
            <ul className="account-list">
              {listed.length === 0 && viewer.id !== null
                ? row({ id: viewer.id, username: viewer.username ?? "", email: null, fullName: viewer.name, imageMediumUrl: viewer.imageUrl, imageLargeUrl: null, owners: [], partner: null, businesses: [], isLoggedIn: true }, false)
                : listed.map((entry) => row(entry, false))}
            </ul>
            <button
              type="button"
              className="account-action"
              onClick={() => {
                setAgain(null);
                setDialog("login");
              }}
            >
              {strings.header.addAccount}
            </button>
          </section>
        )}
        {!limited && (
          <a className="account-action" href="/settings/account-settings">
            {strings.header.settings}
          </a>
        )}
        <button type="button" className="account-action" disabled={busy !== null} onClick={() => void logOut()}>
          {strings.header.logOut}
        </button>
        {error && (
          <p className="auth-form-error" role="alert">
            {error}
          </p>
        )}
      </div>
      <AuthDialog
        open={dialog !== null}
        mode={dialog ?? "login"}
        onModeChange={setDialog}
        onClose={() => {
          setDialog(null);
          setAgain(null);
        }}
        strings={strings}
        next={null}
        country={country}
        locale={locale}
        idPrefix="account-add"
        again={again}
      />
    </div>
  );
}

/** The island as pages mount it: on a member page, its slot's values over its props. */
export default perViewer(AccountMenu);
