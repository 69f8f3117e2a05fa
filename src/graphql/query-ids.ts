// The persisted documents' keys for the browser, which never ships their text: the lowercase
// hex SHA-256 of each document in src/graphql/documents (query-ids.test.ts recomputes them;
// change a document and that test names the new key).
import type { QueryName } from "./documents/index.ts";

export const QUERY_IDS: Readonly<Record<QueryName, string>> = {
  CloseupDetailQuery: "c20bf5ca655ce23171f74588334c7939aa7fe471fa374f62d8b5e887b6ea76ec",
  CloseupPageQuery: "203b84364142ee2a7d85c63a78c91c5d907a532a958bdcee1109fbaca269c8c1",
  CloseupRelatedModulesFeedQuery: "b70f4ce1633e1b0f0875fa959575c56df9f08b19ec2b9829cd2fe3c16b14aa4e",
};
