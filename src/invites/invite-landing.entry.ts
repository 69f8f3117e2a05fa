// The invite landing as its own script file: InviteMount.astro adds it to the page only when
// the URL carries an invite code.
import { start } from "./invite-landing.ts";

void start();
