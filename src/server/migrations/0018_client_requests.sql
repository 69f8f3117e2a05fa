-- Client request ids (X-Client-Request-Id): a write the browser sends again (its answer was
-- lost, or storage failed just after the write committed) is applied once. The id is claimed
-- by an INSERT in the write's own batch, so the claim exists exactly when the write does; the
-- first answer is added after it, to be replayed. Rows go after a day (housekeeping).
CREATE TABLE client_requests (
  -- 'u:<user id>' signed in; 'c:<SHA-256 of the csrftoken cookie>' signed out (sign-up).
  scope TEXT NOT NULL,
  client_id TEXT NOT NULL,
  -- Method and path of the call: one id names one call.
  call TEXT NOT NULL,
  -- The first answer's data as JSON; NULL until it is written.
  answer TEXT,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (scope, client_id)
) WITHOUT ROWID;

CREATE INDEX client_requests_created ON client_requests (created_at);
