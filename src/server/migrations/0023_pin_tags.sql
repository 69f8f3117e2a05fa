-- Pin tags of published pins (spec 001 §3 "Pin tag", "Tagged object"): one row per tagged pin
-- of each tag, so a tag pointing at two pins is two rows under one key. x and y are fractions
-- of the item's image from its top-left corner; a tag not placed is never published. The
-- close-up reads a pin's rows in one joined statement, and the tagged pins' visibility is
-- decided there for each viewer, never stored.
CREATE TABLE pin_tags (
  pin_id INTEGER NOT NULL REFERENCES pins(id) ON DELETE CASCADE,
  tag_key TEXT NOT NULL CHECK (length(tag_key) BETWEEN 1 AND 64),
  -- Which of the pin's images the tag is on: 0 for a single pin, the slot of a carousel.
  item_index INTEGER NOT NULL DEFAULT 0 CHECK (item_index >= 0),
  -- The tag's order on the pin (the number its dot shows).
  position INTEGER NOT NULL CHECK (position >= 0),
  x REAL NOT NULL CHECK (x >= 0 AND x <= 1),
  y REAL NOT NULL CHECK (y >= 0 AND y <= 1),
  tagged_pin_id INTEGER NOT NULL REFERENCES pins(id) ON DELETE CASCADE,
  -- Where the tag leads besides its pins' close-ups; checked as a pin's link when stored and when shown.
  link TEXT,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (pin_id, tag_key, tagged_pin_id)
) WITHOUT ROWID;
-- A pin that is tagged elsewhere: its deletion cascades through this index.
CREATE INDEX pin_tags_tagged ON pin_tags(tagged_pin_id);
