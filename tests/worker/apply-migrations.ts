// Each test file starts from the numbered migrations on empty storage.
import { applyD1Migrations, env } from "cloudflare:test";

await applyD1Migrations(env.DB, (env as unknown as { TEST_MIGRATIONS: Parameters<typeof applyD1Migrations>[1] }).TEST_MIGRATIONS);
