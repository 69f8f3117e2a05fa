// "Create from a website", embedded in the pin builder's upload view: a person gives a page's
// address, the Worker reads its images (FindPinImagesResource), they choose one and it becomes
// their own upload (POST /v3/media/uploads/from-url/), handed to the builder with the page's link.
// The grid is a native radio group, so arrow keys move the choice and a screen reader names
// each image by its alt text; previews come through the Worker (the page's CSP loads images
// from this site only, and the sites browsed never see the person's address).
import { useId, useRef, useState, type FormEvent } from "react";
import { ApiCallError, NetworkError, call, resource } from "~/api/api.client.ts";
import type { UploadAnswer } from "~/media/uploads.server.ts";
import { fill } from "~/saves/strings.ts";
import type { FoundPage } from "./find-images.server.ts";
import type { FromWebsiteStrings } from "./from-website-strings.ts";
import { PIN_LINK_MAX } from "~/pins/pin.ts";
import "./from-website.css";

export interface FromWebsiteProps {
  onImported(upload: UploadAnswer, link: string): void;
  /** The panel's words, from the builder's own props (one island, one table per locale). */
  strings: FromWebsiteStrings;
}

const IMPORT_PATH = "/v3/media/uploads/from-url/";

/** Where the grid loads a found image from: through the Worker, under the import's own guards. */
export const previewSrc = (src: string) => `${IMPORT_PATH}?url=${encodeURIComponent(src)}`;

/** The words for a failed call: the server's reason about the address when it gave one, else what went wrong. */
export function problemText(error: unknown, strings: FromWebsiteStrings): string {
  if (error instanceof NetworkError) return strings.offline;
  if (error instanceof ApiCallError) {
    const line = error.detail?.split("; ").find((part) => /^(options\.)?url: /.test(part));
    if (line) return line.replace(/^(options\.)?url: /, "");
    if (error.httpStatus < 500 && error.message) return error.message;
  }
  return strings.failed;
}

export interface FromWebsiteViewProps {
  strings: FromWebsiteStrings;
  address: string;
  page: FoundPage | null;
  selected: number | null;
  busy: "finding" | "importing" | null;
  /** What went wrong, beside the part it went wrong in: the address, or the chosen image's import. */
  problem: { at: "find" | "import"; text: string } | null;
  /** What the live region says: progress and outcomes, for screen readers. */
  status: string;
  broken: ReadonlySet<number>;
  onAddress(value: string): void;
  onFind(event: FormEvent<HTMLFormElement>): void;
  onSelect(index: number): void;
  onImport(event: FormEvent<HTMLFormElement>): void;
  onBroken(index: number): void;
}

/** The island's markup for a given state: pure, so its structure and labels are tested without a browser. */
export function FromWebsiteView(props: FromWebsiteViewProps) {
  const { strings, page, selected, busy, problem } = props;
  const id = useId();
  const ids = { heading: `${id}-heading`, hint: `${id}-hint`, problem: `${id}-problem`, choose: `${id}-choose` };
  const findProblem = problem?.at === "find" ? problem.text : null;
  const items = page?.items ?? [];
  return (
    <section className="from-website" aria-labelledby={ids.heading}>
      <h2 id={ids.heading} className="from-website__heading">
        {strings.heading}
      </h2>
      <form className="from-website__find" onSubmit={props.onFind} noValidate>
        <label htmlFor={`${id}-url`} className="from-website__label">
          {strings.urlLabel}
        </label>
        <p id={ids.hint} className="from-website__hint">
          {strings.urlHint}
        </p>
        <div className="from-website__row">
          <input
            id={`${id}-url`}
            className="from-website__input"
            type="url"
            inputMode="url"
            autoComplete="url"
            spellCheck={false}
            dir="ltr"
            placeholder="https://"
            maxLength={PIN_LINK_MAX}
            value={props.address}
            onChange={(event) => props.onAddress(event.target.value)}
            aria-invalid={findProblem !== null}
            aria-describedby={findProblem === null ? ids.hint : `${ids.hint} ${ids.problem}`}
          />
          <button type="submit" className="button primary from-website__button" disabled={busy !== null}>
            {busy === "finding" ? strings.finding : strings.find}
          </button>
        </div>
        {findProblem !== null && (
          <p id={ids.problem} className="from-website__problem" role="alert">
            {findProblem}
          </p>
        )}
      </form>
      <p className="visually-hidden" role="status">
        {props.status}
      </p>
      {page !== null && items.length === 0 && <p className="from-website__empty">{strings.noImages}</p>}
      {items.length > 0 && (
        <form className="from-website__results" onSubmit={props.onImport}>
          <fieldset className="from-website__fieldset">
            <legend id={ids.choose} className="from-website__legend">
              {strings.choose}
            </legend>
            <ul className="from-website__grid" role="list">
              {items.map((item, index) => {
                const label = item.alt || fill(strings.untitledImage, { number: index + 1 });
                return (
                  <li key={item.src} className="from-website__cell">
                    <label className="from-website__item" data-broken={props.broken.has(index) || undefined}>
                      <input
                        type="radio"
                        name={`${id}-image`}
                        className="from-website__radio"
                        value={String(index)}
                        checked={selected === index}
                        disabled={busy === "importing" || props.broken.has(index)}
                        onChange={() => props.onSelect(index)}
                      />
                      <img
                        className="from-website__image"
                        src={previewSrc(item.src)}
                        alt={label}
                        loading="lazy"
                        decoding="async"
                        referrerPolicy="no-referrer"
                        width={item.width ?? undefined}
                        height={item.height ?? undefined}
                        onError={() => props.onBroken(index)}
                      />
                    </label>
                  </li>
                );
              })}
            </ul>
          </fieldset>
          <button type="submit" className="button primary from-website__button from-website__use" disabled={selected === null || busy !== null}>
            {busy === "importing" ? strings.importing : strings.use}
          </button>
          {problem?.at === "import" && (
            <p className="from-website__problem" role="alert">
              {problem.text}
            </p>
          )}
        </form>
      )}
    </section>
  );
}

export function FromWebsite({ onImported, strings }: FromWebsiteProps) {
  const [address, setAddress] = useState("");
  const [page, setPage] = useState<FoundPage | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [busy, setBusy] = useState<"finding" | "importing" | null>(null);
  const [problem, setProblem] = useState<FromWebsiteViewProps["problem"]>(null);
  const [status, setStatus] = useState("");
  const [broken, setBroken] = useState<ReadonlySet<number>>(new Set());
  /** The latest search: an answer to an earlier one that arrives late is dropped. */
  const latest = useRef(0);

  async function find(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const url = address.trim();
    if (url === "") {
      setProblem({ at: "find", text: strings.urlRequired });
      return;
    }
    const search = ++latest.current;
    setBusy("finding");
    setProblem(null);
    setStatus(strings.finding);
    try {
      const found = await resource<FoundPage>("FindPinImagesResource", "get", { url, source: "pin_create" });
      if (search !== latest.current) return;
      setPage(found);
      setSelected(found.items.length > 0 ? 0 : null);
      setBroken(new Set());
      setStatus(found.items.length > 0 ? fill(strings.found, { count: found.items.length }) : strings.noImages);
    } catch (error) {
      if (search !== latest.current) return;
      setPage(null);
      setProblem({ at: "find", text: problemText(error, strings) });
      setStatus("");
    } finally {
      if (search === latest.current) setBusy(null);
    }
  }

  async function importChosen(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const item = selected === null ? undefined : page?.items[selected];
    if (!page || !item) return;
    setBusy("importing");
    setProblem(null);
    setStatus(strings.importing);
    try {
      const upload = await call<UploadAnswer>(IMPORT_PATH, { method: "POST", body: { json: { url: item.src } } });
      setStatus(strings.imported);
      onImported(upload, page.link);
    } catch (error) {
      setProblem({ at: "import", text: problemText(error, strings) });
      setStatus("");
    } finally {
      setBusy(null);
    }
  }

  return (
    <FromWebsiteView
      strings={strings}
      address={address}
      page={page}
      selected={selected}
      busy={busy}
      problem={problem}
      status={status}
      broken={broken}
      onAddress={setAddress}
      onFind={(event) => void find(event)}
      onSelect={setSelected}
      onImport={(event) => void importChosen(event)}
      onBroken={(index) => {
        setBroken((current) => new Set(current).add(index));
        setSelected((current) => (current === index ? null : current));
      }}
    />
  );
}
