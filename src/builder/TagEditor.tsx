// An item's pin tags in the builder (spec 001 §3–4): a tap or click on the image places a tag
// there; "Add a tag" places one in the centre for keyboards, and the arrow keys move the
// selected dot (Shift for larger steps). The selected tag gets a search for a pin or a product
// to tag (BaseSearchResource), its tagged pins, an optional link, and Remove. Every change goes
// through pin-tags.ts's rules and is handed back whole: the item and the draft's tag list.
import { useId, useRef, useState, type FormEvent, type KeyboardEvent, type MouseEvent } from "react";
import { fill } from "~/saves/strings.ts";
import { isTaggable, type DraftItem } from "./drafts.ts";
import { addTag, arrowMove, createTag, moveTag, pointToFraction, removeTag, selectTag, setTagLink, setTaggedObjects, tagsOfItem, updateTag, PIN_TAG_LIMITS, UNPLACED, type PinTag, type TaggedObject } from "./pin-tags.ts";
import { canAddObject, canAddTag, newTagId, onItem, positionText, tagLabel, type ItemTagsChange, type TagEditorStrings, type TagSearchScope } from "./tag-editor.ts";
import { tagSearch, type TagSearch } from "./tag-search.client.ts";
import "./tag-editor.css";

export interface TagEditorProps {
  item: DraftItem;
  /** The draft's whole tag list (`pinTags`); the item names its own in pinTagIds. */
  tags: readonly PinTag[];
  onChange(change: ItemTagsChange): void;
  strings: TagEditorStrings;
  /** The item's image to place tags on; without one the area keeps the media's shape. */
  imageUrl?: string | null;
  /** The draft's own link: an item with a link (its own, else this) takes no tags (spec 001 §4). */
  draftLink?: string;
  /** For tests: the search call. */
  search?: TagSearch;
}

type SearchState = { status: "idle" } | { status: "searching" } | { status: "done"; results: TaggedObject[] } | { status: "failed" };

/** Puts a dot at its tag's place through the CSSOM: the page's CSP allows no style attributes. */
function placeDot(element: HTMLElement | null, tag: PinTag) {
  if (!element) return;
  element.style.left = `${tag.x * 100}%`;
  element.style.top = `${tag.y * 100}%`;
}

export default function TagEditor({ item, tags, onChange, strings, imageUrl = null, draftLink = "", search }: TagEditorProps) {
  const id = useId();
  const canvas = useRef<HTMLDivElement>(null);
  /** A dot just added takes the focus when it mounts, so the arrow keys go on to move it. */
  const focusOnMount = useRef<string | null>(null);
  const [query, setQuery] = useState("");
  const [scope, setScope] = useState<TagSearchScope>("products");
  const [found, setFound] = useState<SearchState>({ status: "idle" });
  const searchCall = useRef<TagSearch>(search ?? tagSearch());
  const own = tagsOfItem({ items: [item], pinTags: [...tags] }, item);
  const selected = own.find((tag) => tag.id === item.selectedPinTagId) ?? null;
  const taggable = isTaggable(item.media, item.link ?? draftLink);

  const change = (operation: Parameters<typeof onItem>[2]) => onChange(onItem(item, tags, operation));
  const add = (at: { x: number; y: number }) => {
    if (!canAddTag(item)) return;
    const tag = createTag(newTagId(), at);
    change((draft) => addTag(draft, 0, tag));
    setFound({ status: "idle" });
    focusOnMount.current = tag.id;
  };
  const select = (tagId: string | null) => change((draft) => selectTag(draft, 0, tagId));
  const update = (tagId: string, next: (tag: PinTag) => PinTag) => change((draft) => updateTag(draft, tagId, next));

  const onCanvasClick = (event: MouseEvent<HTMLDivElement>) => {
    if ((event.target as HTMLElement).closest("button") || !canvas.current) return;
    const at = pointToFraction(event.clientX, event.clientY, canvas.current.getBoundingClientRect());
    if (at) add(at);
  };
  const onDotKey = (tag: PinTag) => (event: KeyboardEvent<HTMLButtonElement>) => {
    const to = arrowMove(tag, event.key, event.shiftKey);
    if (!to) return;
    event.preventDefault();
    change((draft) => selectTag(updateTag(draft, tag.id, (each) => moveTag(each, to.x, to.y)), 0, tag.id));
  };
  const onSearch = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = query.trim();
    if (text === "") return;
    setFound({ status: "searching" });
    try {
      setFound({ status: "done", results: await searchCall.current(text, scope) });
    } catch {
      setFound({ status: "failed" });
    }
  };

  if (!taggable) {
    return (
      <section className="tag-editor" aria-labelledby={`${id}-heading`}>
        <h3 id={`${id}-heading`}>{strings.heading}</h3>
        <p className="tag-editor-note">{strings.notTaggable}</p>
      </section>
    );
  }

  const full = !canAddTag(item);
  const ratio = item.media?.width && item.media.height ? `${item.media.width} / ${item.media.height}` : "2 / 3";
  return (
    <section className="tag-editor" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>{strings.heading}</h3>
      <p id={`${id}-hint`} className="tag-editor-note">{strings.hint}</p>
      {/* Pointer placement; keyboards have "Add a tag" and the arrow keys, so the image itself is not a control. */}
      <div
        ref={(element) => {
          canvas.current = element;
          if (element) element.style.aspectRatio = ratio;
        }}
        className="tag-editor-canvas"
        onClick={onCanvasClick}
      >
        {imageUrl ? <img className="tag-editor-image" src={imageUrl} alt={strings.imageLabel} draggable={false} /> : null}
        {own.map((tag, index) =>
          tag.x === UNPLACED || tag.y === UNPLACED ? null : (
            <button
              key={tag.id}
              ref={(element) => {
                placeDot(element, tag);
                if (element && focusOnMount.current === tag.id) {
                  focusOnMount.current = null;
                  element.focus();
                }
              }}
              type="button"
              className="tag-editor-dot"
              aria-pressed={tag.id === item.selectedPinTagId}
              aria-label={`${tagLabel(strings, tag, index)}. ${positionText(strings, tag)}`}
              aria-describedby={`${id}-move`}
              onClick={() => select(tag.id)}
              onKeyDown={onDotKey(tag)}
            >
              {index + 1}
            </button>
          ),
        )}
      </div>
      <p id={`${id}-move`} className="tag-editor-note">{strings.moveHint}</p>
      <button type="button" className="button" disabled={full} aria-describedby={full ? `${id}-full` : undefined} onClick={() => add({ x: 0.5, y: 0.5 })}>
        {strings.add}
      </button>
      {full && <p id={`${id}-full`} className="tag-editor-note">{fill(strings.full, { maximum: PIN_TAG_LIMITS.perItem })}</p>}

      {own.length > 0 && (
        <ol className="tag-editor-list" aria-label={strings.listLabel}>
          {own.map((tag, index) => (
            <li key={tag.id} className={tag.id === item.selectedPinTagId ? "is-selected" : undefined}>
              <button type="button" className="tag-editor-pick-tag" aria-pressed={tag.id === item.selectedPinTagId} onClick={() => select(tag.id)}>
                <span>{tagLabel(strings, tag, index)}</span> <span className="tag-editor-muted">{positionText(strings, tag)}</span>
              </button>
              <button type="button" className="button" onClick={() => change((draft) => removeTag(draft, tag.id))}>
                {strings.remove}
              </button>
            </li>
          ))}
        </ol>
      )}

      {selected && (
        <div className="tag-editor-panel">
          {selected.taggedObjects.length > 0 && (
            <ul className="tag-editor-objects" aria-label={strings.tagged}>
              {selected.taggedObjects.map((object) => (
                <li key={object.id}>
                  {object.media ? <img src={object.media} alt="" width={40} height={40} /> : null}
                  <span dir="auto">{object.title || strings.untitled}</span>
                  {object.type === "product" && <span className="tag-editor-muted">{strings.product}</span>}
                  <button
                    type="button"
                    className="button"
                    aria-label={fill(strings.untagObject, { title: object.title || strings.untitled })}
                    onClick={() => update(selected.id, (tag) => setTaggedObjects(tag, tag.taggedObjects.filter((each) => each.id !== object.id)))}
                  >
                    ×
                  </button>
                </li>
              ))}
            </ul>
          )}
          <form role="search" className="tag-editor-search" onSubmit={(event) => void onSearch(event)}>
            <label htmlFor={`${id}-query`}>{strings.searchLabel}</label>
            <div className="tag-editor-row">
              <input id={`${id}-query`} type="search" value={query} maxLength={200} onChange={(event) => setQuery(event.target.value)} />
              <button type="submit" className="button">{strings.search}</button>
            </div>
            <fieldset className="tag-editor-scopes">
              <legend>{strings.scopeLabel}</legend>
              {(["products", "pins"] as const).map((each) => (
                <label key={each}>
                  <input type="radio" name={`${id}-scope`} value={each} checked={scope === each} onChange={() => setScope(each)} />
                  {each === "products" ? strings.scopeProducts : strings.scopePins}
                </label>
              ))}
            </fieldset>
          </form>
          <div aria-live="polite" className="tag-editor-status">
            {found.status === "searching" && <p>{strings.searching}</p>}
            {found.status === "failed" && <p>{strings.searchFailed}</p>}
            {found.status === "done" && found.results.length === 0 && <p>{strings.noResults}</p>}
          </div>
          {found.status === "done" && found.results.length > 0 && (
            <ul className="tag-editor-results" aria-label={strings.resultsLabel}>
              {found.results.map((result) => {
                const already = selected.taggedObjectIds.includes(result.id);
                return (
                  <li key={result.id}>
                    {result.media ? <img src={result.media} alt="" width={40} height={40} /> : null}
                    <span dir="auto">{result.title || strings.untitled}</span>
                    <button
                      type="button"
                      className="button"
                      disabled={already || !canAddObject(selected)}
                      aria-label={`${already ? strings.tagged : strings.pick}: ${result.title || strings.untitled}`}
                      onClick={() => update(selected.id, (tag) => setTaggedObjects(tag, [...tag.taggedObjects, result]))}
                    >
                      {already ? strings.tagged : strings.pick}
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
          {!canAddObject(selected) && <p className="tag-editor-note">{fill(strings.fullObjects, { maximum: PIN_TAG_LIMITS.objectsPerTag })}</p>}
          <label htmlFor={`${id}-link`}>{strings.linkLabel}</label>
          <input
            id={`${id}-link`}
            type="url"
            inputMode="url"
            maxLength={2048}
            defaultValue={selected.link ?? ""}
            key={selected.id}
            onBlur={(event) => {
              const link = event.target.value.trim();
              // Leaving the field unchanged is no edit: nothing to hand back, nothing to autosave.
              if (link !== (selected.link ?? "")) update(selected.id, (tag) => setTagLink(tag, link));
            }}
          />
        </div>
      )}
    </section>
  );
}
