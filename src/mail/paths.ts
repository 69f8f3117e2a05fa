// Where the e-mailed verification link lands (src/pages/email-verified.astro).
export const EMAIL_VERIFIED_PATH = "/email-verified/";
