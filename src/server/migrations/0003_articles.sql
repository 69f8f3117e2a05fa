-- Editorial "Today" articles (spec 000 §2 "Editorial article"): /today/{segment}/{slug}/{id}/.
-- body is plain text, paragraphs separated by blank lines. Times are epoch milliseconds.
CREATE TABLE today_articles (
  id INTEGER PRIMARY KEY,
  title TEXT NOT NULL,
  subtitle TEXT,
  body TEXT,
  content_type INTEGER NOT NULL,
  is_shopping INTEGER NOT NULL DEFAULT 0,
  cover_pin_id INTEGER REFERENCES pins(id) ON DELETE SET NULL,
  author_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  published_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  is_published INTEGER NOT NULL DEFAULT 1
);

-- The pins an article shows, in position order.
CREATE TABLE today_article_pins (
  article_id INTEGER NOT NULL REFERENCES today_articles(id) ON DELETE CASCADE,
  pin_id INTEGER NOT NULL REFERENCES pins(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  PRIMARY KEY (article_id, pin_id)
);
CREATE INDEX today_article_pins_order ON today_article_pins(article_id, position);
CREATE INDEX today_article_pins_pin ON today_article_pins(pin_id);
