// The attribution signing secret the `worker` test project binds (vitest.config.mts), so tests
// can mint the token a page would carry. Test-only: deploys set their own with `wrangler secret put`.
export const TEST_ATTRIBUTION_SECRET = "worker-tests-attribution-secret-0123456789abcdef";
