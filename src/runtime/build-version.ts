// The build's version: one constant the Worker and the client bundle share, so a page can tell
// that the server answering it is a newer (or older) deploy. astro.config.mjs defines
// __PINLOOM_BUILD__ at build time (the git commit, plus a hash of the working tree's changes
// when it is dirty); unit tests and tools that do not go through the build see "dev".
declare const __PINLOOM_BUILD__: string | undefined;

export const BUILD_VERSION: string = typeof __PINLOOM_BUILD__ === "string" && __PINLOOM_BUILD__ ? __PINLOOM_BUILD__ : "dev";
