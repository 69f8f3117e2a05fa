// Where the cookie choices are made in full, for signed-in people and visitors alike.
export const COOKIE_SETTINGS_PATH = "/settings/cookies/";
