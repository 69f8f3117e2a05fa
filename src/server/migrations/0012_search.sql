-- Issue 7: full-text search (SQLite FTS5, which D1 supports) and recent searches.
--
-- Three FTS5 tables, one per kind of result, each keyed by its source row's id (rowid):
--   search_pins    (title, description, metadata)  ← pins
--   search_boards  (name, description)             ← boards
--   search_users   (username, full_name)           ← users
-- The tables keep their own copy of the text (not content=...): the pin text is derived (JSON
-- fields extracted from rich_metadata), and a self-contained table can be rebuilt from the
-- views below at any time. Triggers keep them current: they fire inside the statement that
-- writes the source row, so inside the writer's own D1 batch (issue 7: "kept current by the
-- same batch that writes the source rows"). Pin UPDATE triggers fire only on the indexed
-- columns, so counters (save_count, comment_count, ...) do not rewrite the index.
-- Visibility is NOT in the index: search joins pins/boards/users and applies the pin page's
-- rules in SQL, so a board turning secret takes effect at once.
--
-- Tokenizer: unicode61 with remove_diacritics 2 ("creme" finds "crème"); prefix indexes of 2
-- and 3 characters make typeahead's prefix queries ("ca"*) index lookups.
-- Note: `wrangler d1 export` refuses a database holding virtual tables; export with the
-- search_* tables dropped and rebuild them with the INSERT ... SELECT statements at the end.

-- The text a pin is found by. metadata: alt text, automatic alt text, recipe name and
-- ingredient names, product names and brands, article title (rich_metadata JSON; malformed
-- JSON contributes nothing rather than failing the writer's batch).
CREATE VIEW search_pin_text AS
SELECT p.id AS id,
       CASE WHEN p.grid_title = '' OR p.grid_title = p.title THEN p.title ELSE p.title || ' ' || p.grid_title END AS title,
       p.description AS description,
       trim(
         coalesce(p.alt_text, '') || ' ' || coalesce(p.auto_alt_text, '') || ' ' ||
         CASE WHEN p.rich_metadata IS NOT NULL AND json_valid(p.rich_metadata) THEN
           coalesce(json_extract(p.rich_metadata, '$.recipe.name'), '') || ' ' ||
           coalesce((SELECT group_concat(json_extract(item.value, '$.name'), ' ')
                     FROM json_each(p.rich_metadata, '$.recipe.ingredients') AS grp, json_each(grp.value, '$.items') AS item
                     WHERE json_type(grp.value, '$.items') = 'array'), '') || ' ' ||
           coalesce((SELECT group_concat(coalesce(json_extract(product.value, '$.name'), '') || ' ' || coalesce(json_extract(product.value, '$.brand'), ''), ' ')
                     FROM json_each(p.rich_metadata, '$.products') AS product
                     WHERE json_type(product.value) = 'object'), '') || ' ' ||
           coalesce(json_extract(p.rich_metadata, '$.article.name'), '')
         ELSE '' END
       ) AS metadata
FROM pins p;

CREATE VIRTUAL TABLE search_pins USING fts5(title, description, metadata, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');
CREATE VIRTUAL TABLE search_boards USING fts5(name, description, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');
CREATE VIRTUAL TABLE search_users USING fts5(username, full_name, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');
-- The index's vocabulary (term, doc count), for typo candidates. Named search_pins_* so tools
-- that skip FTS shadow tables (scripts/seed.ts --reset) skip it too.
CREATE VIRTUAL TABLE search_pins_vocab USING fts5vocab(search_pins, 'row');

CREATE TRIGGER search_pins_insert AFTER INSERT ON pins BEGIN
  INSERT INTO search_pins (rowid, title, description, metadata) SELECT id, title, description, metadata FROM search_pin_text WHERE id = new.id;
END;
CREATE TRIGGER search_pins_update AFTER UPDATE OF title, grid_title, description, alt_text, auto_alt_text, rich_metadata ON pins BEGIN
  DELETE FROM search_pins WHERE rowid = old.id;
  INSERT INTO search_pins (rowid, title, description, metadata) SELECT id, title, description, metadata FROM search_pin_text WHERE id = new.id;
END;
CREATE TRIGGER search_pins_delete AFTER DELETE ON pins BEGIN
  DELETE FROM search_pins WHERE rowid = old.id;
END;

CREATE TRIGGER search_boards_insert AFTER INSERT ON boards BEGIN
  INSERT INTO search_boards (rowid, name, description) VALUES (new.id, new.name, new.description);
END;
CREATE TRIGGER search_boards_update AFTER UPDATE OF name, description ON boards BEGIN
  DELETE FROM search_boards WHERE rowid = old.id;
  INSERT INTO search_boards (rowid, name, description) VALUES (new.id, new.name, new.description);
END;
CREATE TRIGGER search_boards_delete AFTER DELETE ON boards BEGIN
  DELETE FROM search_boards WHERE rowid = old.id;
END;

CREATE TRIGGER search_users_insert AFTER INSERT ON users BEGIN
  INSERT INTO search_users (rowid, username, full_name) VALUES (new.id, new.username, new.full_name);
END;
CREATE TRIGGER search_users_update AFTER UPDATE OF username, full_name ON users BEGIN
  DELETE FROM search_users WHERE rowid = old.id;
  INSERT INTO search_users (rowid, username, full_name) VALUES (new.id, new.username, new.full_name);
END;
CREATE TRIGGER search_users_delete AFTER DELETE ON users BEGIN
  DELETE FROM search_users WHERE rowid = old.id;
END;

-- Existing rows.
INSERT INTO search_pins (rowid, title, description, metadata) SELECT id, title, description, metadata FROM search_pin_text;
INSERT INTO search_boards (rowid, name, description) SELECT id, name, description FROM boards;
INSERT INTO search_users (rowid, username, full_name) SELECT id, username, full_name FROM users;

-- Recent searches per person (spec 000 §9): two lists, recent and recent personal (my_pins,
-- my_content), each capped at 20 by the statement that records a search. query_key is the
-- NFKC lower-cased query (src/search/recent.ts recentKey), so "Cats" and "cats" are one entry
-- and the newest spelling is kept in query.
CREATE TABLE recent_searches (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  personal INTEGER NOT NULL CHECK (personal IN (0, 1)),
  query_key TEXT NOT NULL CHECK (length(query_key) BETWEEN 1 AND 400),
  query TEXT NOT NULL CHECK (length(query) BETWEEN 1 AND 200),
  searched_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, personal, query_key)
) WITHOUT ROWID;
CREATE INDEX recent_searches_order ON recent_searches(user_id, personal, searched_at DESC);

-- What search reads of a pin for every FTS match (visibility, scope, filters, ranking), as a
-- covering index: search joins pins INDEXED BY it, so the wide pins rows (JSON, HTML) are read
-- only for the page's own rows. At 100,000 pins this is the difference between reading a few
-- small index pages and thousands of overflow pages per common word.
CREATE INDEX pins_search_facts ON pins(id, is_deleted, is_hidden, is_unsafe, pinner_id, board_id, kind, save_count, created_at, price_value, domain, category);

