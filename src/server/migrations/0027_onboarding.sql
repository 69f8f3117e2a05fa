-- Onboarding for a new account (spec 001 §2 "Onboarding, starting at the step welcome", §9
-- "Default onboarding step: welcome") and the flag behind its first home feed
-- (spec 001 §3 User.firstHomeFeedRequestAfterNux).
--
-- The step is kept on the account so onboarding resumes where it stopped on any device.
-- Accounts that existed before onboarding did are 'done'; sign-up writes 'welcome'
-- (src/accounts/register.server.ts). 'skipped' is finished too, by the person's choice.
ALTER TABLE users ADD COLUMN onboarding_step TEXT NOT NULL DEFAULT 'done'
  CHECK (onboarding_step IN ('welcome','interests','creators','locale','done','skipped'));

-- 1 from the moment onboarding ends until the home feed has been asked for once: that first
-- feed says it was built from the person's choices.
ALTER TABLE users ADD COLUMN first_home_feed_after_nux INTEGER NOT NULL DEFAULT 0
  CHECK (first_home_feed_after_nux IN (0, 1));
