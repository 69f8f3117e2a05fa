// What `import … from "zod"` resolves to in the built app (astro.config.mjs): zod with its JIT
// off. The JIT would compile object parsers with `new Function`, which the pages' CSP forbids,
// and even its caught probe is reported as a violation in every browser that runs a schema.
// The Worker never compiles them either (zod skips its JIT under workerd), so nothing slows.
import { z } from "zod/v4";

z.config({ jitless: true });

export * from "zod/v4";
