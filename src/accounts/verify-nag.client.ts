// Spec 000 §4 email-verification reminder, opened for a signed-in viewer whose nags include
// "verify_email", once per browser session (a flag in sessionStorage), never for others.
export const VERIFY_NAG_KEY = "pinloom_verify_nag_shown";

type Context = { viewer?: { nags?: unknown } | null };

export function shouldNagVerify(context: Context, store?: Pick<Storage, "getItem" | "setItem"> | null): boolean {
  const nags = context.viewer?.nags;
  if (!Array.isArray(nags) || !nags.includes("verify_email")) return false;
  try {
    const storage = store === undefined ? sessionStorage : store;
    if (!storage || storage.getItem(VERIFY_NAG_KEY) !== null) return false;
    storage.setItem(VERIFY_NAG_KEY, "1");
    return true;
  } catch {
    return false;
  }
}
