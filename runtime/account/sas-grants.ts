/**
 * What a SAS token must grant for each Table operation (Microsoft's "Create
 * an account SAS" and "Create a service SAS" tables), and which grant a
 * refused token lacks — so that a 403 says "it lacks 'a' (add)" rather than
 * "access denied".
 */
import { SasInfo } from "./sas";

/** The Table operations a SAS may be refused for. */
export type TableOperation =
  | "listTables"
  | "createTable"
  | "deleteTable"
  | "queryEntities"
  | "getEntity"
  | "insertEntity"
  | "updateEntity"
  | "upsertEntity"
  | "deleteEntity"
  | "batchDelete"
  | "batchUpsert"
  | "batch";

interface Need {
  /** What the user was doing, for the message. */
  doing: string;
  /** Account SAS resource type: c (container = table) or o (object = entity). */
  resourceType: "c" | "o";
  /** Every inner list needs one of its letters (e.g. upsert: add and update). */
  permissions: string[][];
}

const NEEDS: Record<TableOperation, Need> = {
  listTables: { doing: "list tables", resourceType: "c", permissions: [["l"]] },
  createTable: { doing: "create a table", resourceType: "c", permissions: [["c", "w", "a"]] },
  deleteTable: { doing: "delete a table", resourceType: "c", permissions: [["d"]] },
  queryEntities: { doing: "query entities", resourceType: "o", permissions: [["r"]] },
  getEntity: { doing: "read an entity", resourceType: "o", permissions: [["r"]] },
  insertEntity: { doing: "insert an entity", resourceType: "o", permissions: [["a"]] },
  updateEntity: { doing: "update an entity", resourceType: "o", permissions: [["u"]] },
  upsertEntity: { doing: "insert or replace entities", resourceType: "o", permissions: [["a"], ["u"]] },
  deleteEntity: { doing: "delete an entity", resourceType: "o", permissions: [["d"]] },
  batchDelete: { doing: "delete entities", resourceType: "o", permissions: [["d"]] },
  batchUpsert: { doing: "import entities", resourceType: "o", permissions: [["a"], ["u"]] },
  batch: { doing: "run an entity group transaction", resourceType: "o", permissions: [] },
};

const PERMISSION_NAMES: Record<string, string> = {
  r: "read",
  w: "write",
  d: "delete",
  l: "list",
  a: "add",
  c: "create",
  u: "update",
  p: "process",
};
const RESOURCE_NAMES: Record<string, string> = { s: "service", c: "container, i.e. tables", o: "object, i.e. entities" };

/**
 * Why `sas` cannot do `op`, in words, or undefined when the token looks
 * sufficient (then the refusal has another cause: signature, IP, protocol).
 */
export function missingGrant(sas: SasInfo, op: TableOperation): string | undefined {
  const need = NEEDS[op];
  const has = shown(sas.permissions) || "none";
  if (sas.services !== undefined && !sas.services.includes("t")) {
    return `the SAS token is not for the Table service (its services ss=${shown(sas.services)} do not include t): create one that includes Table`;
  }
  if (sas.table !== undefined && need.resourceType === "c") {
    return `the SAS token is a table SAS for '${shown(sas.table)}' only, which cannot ${need.doing}: use an account SAS (ss=t, srt=c) for that`;
  }
  if (sas.table === undefined && sas.resourceTypes !== undefined && !sas.resourceTypes.includes(need.resourceType)) {
    return `the SAS token may not ${need.doing}: it lacks the resource type '${need.resourceType}' (${RESOURCE_NAMES[need.resourceType]}) in srt (it has srt=${shown(sas.resourceTypes) || "none"})`;
  }
  const lacking = need.permissions.filter((anyOf) => !anyOf.some((p) => sas.permissions.includes(p)));
  if (!lacking.length) return undefined;
  const words = lacking.map((anyOf) => anyOf.map((p) => `'${p}' (${PERMISSION_NAMES[p]})`).join(" or "));
  return `the SAS token may not ${need.doing}: it lacks the permission ${words.join(" and ")} in sp (it has sp=${has}); create a token that grants it`;
}

/** Field values are not secret, but only the short letter codes a real token holds are worth echoing. */
function shown(value: string): string {
  return /^[A-Za-z0-9,]{0,63}$/.test(value) ? value : "(unreadable)";
}

/**
 * The operation a failed request was, read from its method, path and
 * headers (the SDK's error carries the request), for errors raised where the
 * caller did not say.
 */
export function operationOf(method: string | undefined, url: string | undefined, ifMatch: boolean): TableOperation | undefined {
  if (!method || !url) return undefined;
  let last: string;
  try {
    const segments = new URL(url).pathname.split("/").filter(Boolean);
    last = decodeURIComponent(segments[segments.length - 1] ?? "");
  } catch {
    return undefined;
  }
  const m = method.toUpperCase();
  if (last === "$batch") return "batch";
  if (last === "Tables") return m === "POST" ? "createTable" : "listTables";
  if (last.startsWith("Tables(")) return m === "DELETE" ? "deleteTable" : undefined;
  const keyed = last.includes("(") && !last.endsWith("()");
  if (m === "GET") return keyed ? "getEntity" : "queryEntities";
  if (m === "DELETE") return "deleteEntity";
  if (m === "POST" && !keyed) return "insertEntity";
  return ifMatch ? "updateEntity" : "upsertEntity";
}
