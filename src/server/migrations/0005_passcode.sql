-- Parental passcode (issue 4): the backup email a parent gave when setting the passcode.
-- users.parental_control_anonymized_email (0001) is what the viewer shows ("p****@example.com");
-- the full address must be kept somewhere to ever be of use, and it is never sent to the client.
ALTER TABLE users ADD COLUMN parental_passcode_backup_email TEXT;
