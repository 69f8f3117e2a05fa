// A write's answer with what it leaves for the HTTP layer to do once the answer is sent: the
// data layer says which signed-out pages went stale and which media no row holds any more;
// the edge functions (src/server/after-write.ts) schedule the purges and deletes.
export interface Written<T> {
  value: T;
  /** Paths of signed-out pages that show what changed. */
  stale: string[];
  /** R2 keys of media the write let go of. */
  orphans?: string[];
}

export const written = <T>(value: T, stale: string[] = [], orphans: string[] = []): Written<T> => ({ value, stale, orphans });
