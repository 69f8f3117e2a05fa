// Typo correction: when a search finds few pins, a close query the viewer would see more pins
// for. Only words that look misspelt are checked, and only visible counts decide.
import { pinCountStatement } from "./matching.server.ts";
import type { PinFilterPlan } from "./plan.ts";
import { matchExpression, tokensOf } from "./query.ts";
import { FEW_RESULTS } from "./response.ts";
import { closestTerms, correctedWords, type TypoCandidate } from "./typo.ts";

/**
 * A query word in at least this many documents of the index (search_pins_vocab `doc`) that the
 * viewer can also see at least this many pins of (under the search's scope and filters) is
 * spelt right: it is never corrected. The typo path runs only when the query found fewer than
 * FEW_RESULTS pins; a word the viewer sees on 4× that many pins is not why results are few
 * (the combination is), and looking for its neighbours is most of a typo check's cost
 * ("brown butter banana bread": 4 vocabulary scans and 20 counts, 22 ms at 100,000 pins). At
 * 100,000 pins the vocabulary's tail sits below it (681 terms on 1 document, 101 on 2–4),
 * common words far above. Both counts must pass: the vocabulary counts secret, hidden and
 * deleted pins too, and those must not decide anything a viewer sees (a word only secret pins
 * hold is corrected exactly like a word that does not exist).
 */
export const KNOWN_WORD_DOCS = FEW_RESULTS * 4;
/** Vocabulary terms looked at per misspelt word: the commonest of the same first letter and near length. */
const TYPO_CANDIDATES = 400;
/** Visible pins are counted up to this many per candidate: enough to rank a handful. */
const TYPO_COUNT_CAP = 50;

/**
 * A close query with more visible results, when one exists: each of the first five words is
 * swapped for the index term within edit distance 2 (same first letter) that has the most pins
 * the viewer may see, among its closest few, when that is more than the query found; the
 * corrected words (with the query's later words and the applied filters' words unchanged) are
 * offered only when the viewer would see more pins for them. Only visible counts decide: a
 * word or a candidate that only secret, hidden or deleted pins hold changes nothing.
 */
export async function typoFor(db: D1Database, query: string, plan: PinFilterPlan, found: number, matchTokens: readonly string[]): Promise<{ original: string; corrected: string } | null> {
  const queryTokens = tokensOf(query);
  const tokens = queryTokens.slice(0, 5);
  if (tokens.length === 0) return null;
  const misspelt = await lookMisspelt(db, tokens, plan);
  if (misspelt.size === 0) return null;
  const closest = await neighbours(db, tokens, misspelt);
  const candidates = closest.flat();
  if (candidates.length === 0) return null;
  // Each candidate's visible pins under the plan's scope and filters: the same rule as results.
  const counts = await db.batch<{ n: number }>(candidates.map((candidate) => pinCountStatement(db, { ...plan, match: matchExpression([candidate.term])! }, TYPO_COUNT_CAP)));
  const visible = new Map(candidates.map((candidate, index) => [candidate.term, Number(counts[index]?.results[0]?.n ?? 0)]));
  const corrected = correctedWords(tokens, closest, visible, found);
  if (corrected === null) return null;
  // The plan's match holds the query's words then the applied filters' words: only the first five change.
  const correctedMatch = matchExpression([...corrected, ...matchTokens.slice(corrected.length)]);
  if (correctedMatch === null) return null;
  const count = await pinCountStatement(db, { ...plan, match: correctedMatch }, FEW_RESULTS * 4).first<{ n: number }>();
  if (!count || count.n <= found) return null;
  return { original: query, corrected: [...corrected, ...queryTokens.slice(corrected.length)].join(" ") };
}

/** Each token's closest vocabulary terms (closestTerms), [] for a token not misspelt: one round trip. */
async function neighbours(db: D1Database, tokens: readonly string[], misspelt: ReadonlySet<string>): Promise<TypoCandidate[][]> {
  const lookups = tokens.map((token) => (misspelt.has(token) ? vocabularyNear(db, token) : null));
  const asked = lookups.filter((lookup) => lookup !== null);
  const answers = await db.batch<{ term: string; doc: number }>(asked);
  const vocab = lookups.map((lookup) => (lookup === null ? [] : (answers[asked.indexOf(lookup)]?.results ?? [])));
  return tokens.map((token, index) => closestTerms(token, vocab[index]!));
}

/** The commonest TYPO_CANDIDATES vocabulary terms of the token's first letter and a length within 2 of its. */
function vocabularyNear(db: D1Database, token: string): D1PreparedStatement {
  const first = Array.from(token)[0]!;
  const next = String.fromCodePoint(first.codePointAt(0)! + 1);
  const length = Array.from(token).length;
  return db
    .prepare(
      `SELECT term, doc FROM search_pins_vocab WHERE term >= ?1 AND term < ?2 AND length(term) BETWEEN ?3 AND ?4
         ORDER BY doc DESC LIMIT ${TYPO_CANDIDATES}`,
    )
    .bind(first, next, Math.max(1, length - 2), length + 2);
}

/**
 * The query words that may be misspelt: all but those the vocabulary holds in KNOWN_WORD_DOCS
 * documents and the viewer sees on KNOWN_WORD_DOCS pins under the plan. One round trip: a
 * vocabulary lookup by term (cheap: one doclist per word) and a visible count per word that
 * stops at the threshold.
 */
async function lookMisspelt(db: D1Database, tokens: readonly string[], plan: PinFilterPlan): Promise<Set<string>> {
  const words = [...new Set(tokens)];
  const [docs, ...visible] = await db.batch([
    db.prepare("SELECT term, doc FROM search_pins_vocab WHERE term IN (SELECT value FROM json_each(?1))").bind(JSON.stringify(words)),
    ...words.map((word) => pinCountStatement(db, { ...plan, match: matchExpression([word])! }, KNOWN_WORD_DOCS)),
  ]);
  const inIndex = new Map(((docs?.results ?? []) as Array<{ term: string; doc: number }>).map((row) => [row.term, Number(row.doc)]));
  return new Set(
    words.filter((word, index) => {
      const seen = Number((visible[index]?.results[0] as { n: number } | undefined)?.n ?? 0);
      return !((inIndex.get(word) ?? 0) >= KNOWN_WORD_DOCS && seen >= KNOWN_WORD_DOCS);
    }),
  );
}
