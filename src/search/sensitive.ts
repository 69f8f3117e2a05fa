// Queries about self-harm: search answers `sensitivity: {kind: "sensitive_query"}` and the page
// shows where to find help above the results. A short, conservative list of phrases (English
// and the shipped locales' most common forms), compared on whole words, diacritics removed.

const SENSITIVE_PHRASES = [
  "suicide", "suicidal", "kill myself", "killing myself", "end my life", "want to die", "wanna die",
  "self harm", "selfharm", "self harming", "hurt myself", "hurting myself", "cutting myself", "cut myself",
  "thinspo", "thinspiration", "pro ana", "proana", "pro mia",
  "suicidio", "suicidaire", "me tuer", "automutilation", "انتحار", "إيذاء النفس",
] as const;

function fold(text: string): string {
  return ` ${text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()} `;
}

const FOLDED = SENSITIVE_PHRASES.map(fold);

export function isSensitiveQuery(query: string): boolean {
  const folded = fold(query);
  return FOLDED.some((phrase) => folded.includes(phrase));
}
