// One row of the `pins` table (src/server/migrations/0001_core.sql), as D1 returns it:
// booleans are 0/1, JSON columns are text, times are epoch milliseconds. Shared by the server
// reads and the seed, so the two cannot disagree about a column.
import type { PinKind } from "./pin.ts";

export interface PinTableRow {
  id: number;
  pinner_id: number;
  native_creator_id: number | null;
  origin_pinner_id: number | null;
  promoter_id: number | null;
  board_id: number | null;
  section_id: number | null;
  kind: PinKind;
  title: string;
  grid_title: string;
  description: string;
  description_html: string;
  alt_text: string | null;
  auto_alt_text: string | null;
  dominant_color: string;
  category: string | null;
  domain: string | null;
  link: string | null;
  mobile_link: string | null;
  tracked_link: string | null;
  tracking_params: string | null;
  image_signature: string;
  price_currency: string | null;
  price_value: number | null;
  seo_title: string | null;
  seo_description: string | null;
  seo_url: string | null;
  seo_noindex_reason: string | null;
  comments_disabled: number;
  is_unsafe: number;
  is_hidden: number;
  is_promoted: number;
  is_downstream_promotion: number;
  promoted_is_removable: number;
  is_eligible_for_pdp: number;
  is_oos_product: number;
  is_stale_product: number;
  is_deleted: number;
  closeup_attribution_user_id: number | null;
  media_attribution: string | null;
  rich_metadata: string | null;
  story_pin_data: string | null;
  carousel_data: string | null;
  sponsorship: string | null;
  save_count: number;
  share_count: number;
  comment_count: number;
  did_it_images_count: number;
  created_at: number;
  updated_at: number;
}
