-- Files the pin builder uploaded (images and videos), each owned by the person who sent it.
-- Private to its owner until a pin that uses it publishes: its R2 objects live under
-- uploads/<user_id>/<id>/ and are served to others only where a visible pin names them.
CREATE TABLE media_uploads (
  id TEXT PRIMARY KEY CHECK (length(id) = 32),   -- 128 random bits in hex: not guessable
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('image', 'video')),
  content_type TEXT NOT NULL,
  bytes INTEGER NOT NULL CHECK (bytes > 0),
  width INTEGER CHECK (width > 0),               -- images: measured; videos: NULL until a poster frame is made
  height INTEGER CHECK (height > 0),
  dominant_color TEXT,
  sizes TEXT CHECK (sizes IS NULL OR json_valid(sizes)),   -- images: {"236x": [w, h], ...} as measured from each stored size
  status TEXT NOT NULL DEFAULT 'uploaded' CHECK (status IN ('uploaded', 'published')),
  created_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX media_uploads_user ON media_uploads(user_id, created_at);
-- Where a published pin shows an upload, the media route finds it by URL (src/media/access.server.ts).
CREATE INDEX pin_images_upload ON pin_images(url) WHERE url LIKE '/media/uploads/%';
CREATE INDEX pin_video_formats_upload ON pin_video_formats(url) WHERE url LIKE '/media/uploads/%';
