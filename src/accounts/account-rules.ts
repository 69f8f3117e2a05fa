// The account field rules the sign-up and settings calls enforce and the forms check before
// sending (spec 000 §5). Pure and free of zod, so the browser forms share them as they are.

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
/** Letters and digits of any script, ASCII punctuation and the space: "basic symbols". */
export const PASSWORD_PATTERN = /^[\p{L}\p{N} !-/:-@[-`{-~]+$/u;
/** 3 to 30 letters, digits or underscores, not digits alone. */
export const USERNAME_PATTERN = /^(?=.*[A-Za-z_])[A-Za-z0-9_]{3,30}$/;
export const FIRST_NAME_MAX = 30;
