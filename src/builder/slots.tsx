// Mount points for the builder's parts that ship separately: creating a draft from a website's
// image (src/builder/FromWebsite.tsx) and an item's pin tags (src/builder/TagEditor.tsx). Each
// renders nothing until its component is merged and rendered here with these same props.
import type { DraftItem } from "./drafts.ts";
import type { UploadInfo } from "./media.ts";

export interface FromWebsiteMountProps {
  /** An image found on a page and stored as the person's upload, with the page's link. */
  onImported(upload: UploadInfo, link: string): void;
}

export function FromWebsiteMount(_props: FromWebsiteMountProps) {
  return null;
}

export interface TagEditorMountProps {
  item: DraftItem;
  /** The item's picture to place tags on, and the draft's own link (a linked item takes no tags). */
  imageUrl: string | null;
  draftLink: string;
  onChange(item: DraftItem): void;
}

export function TagEditorMount(_props: TagEditorMountProps) {
  return null;
}
