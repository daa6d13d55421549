/**
 * One place that removes secrets from text bound for a user or a log: the
 * values of AccountKey / SharedAccessSignature settings, the query of any
 * URL or token that carries a SAS signature, bearer tokens, and bare base64
 * runs as long as a key. The SDK echoes request URLs (with their SAS) in some
 * errors, so every message leaving the account layer goes through here.
 *
 * Every pattern is a single quantifier over a character class (linear time
 * on a 1 MB line); the SAS search tokenises instead of searching.
 */

/** What a removed secret is replaced with. */
export const REDACTED = "…";

/** `AccountKey=…`, `"SharedAccessKey": "…"`, `Password: …` (a separator, then the value up to a delimiter). */
const SETTING = /\b(AccountKey|SharedAccessKey|AccessKey|Password|pwd)(\s*["']?\s*[=:]\s*["']?)([^\s;"'<>&,]*)/gi;
/** A SAS setting's value runs over `&` up to the next `;`. */
const SAS_SETTING = /\b(SharedAccessSignature)(\s*["']?\s*[=:]\s*["']?)([^\s;"'<>]*)/gi;
/** `AccountKey <key>` (a space for `=`): redacted when what follows has the shape of a key, not of a word. */
const SPACED = /\b(AccountKey|SharedAccessSignature|SharedAccessKey)(\s+)([A-Za-z0-9+/%&=-]{8,})/gi;
const BEARER = /\b(Bearer)(\s+)[A-Za-z0-9._~+/-]+=*/gi;
/** Base64 runs of 40 characters or more (account keys are 88): redacted when they mix letters and digits like a key. */
const BASE64_RUN = /[A-Za-z0-9+/]{40,}={0,2}/g;
/** Tokens of text between delimiters; the SAS check runs on each. */
const TOKEN = /[^\s"'<>;]+/g;

/**
 * `text` with every secret shape replaced by `…`. Idempotent, and leaves text
 * without secrets unchanged (so it can wrap any message).
 */
export function redact(text: string): string {
  return text
    .replace(SAS_SETTING, settingValue)
    .replace(SETTING, settingValue)
    .replace(SPACED, (m, name: string, sep: string, value: string) => (looksRandom(value) ? `${name}${sep}${REDACTED}` : m))
    .replace(BEARER, (_m, name: string, sep: string) => `${name}${sep}${REDACTED}`)
    .replace(TOKEN, redactSasToken)
    .replace(BASE64_RUN, (run) => (looksRandom(run) ? REDACTED : run));
}

/**
 * `Name=value` always loses its value; `Name: value` only when the value has
 * a secret's shape, so that prose such as "no AccountKey: add one" survives.
 */
function settingValue(match: string, name: string, sep: string, value: string): string {
  if (!value || value === REDACTED) return match;
  return sep.includes("=") || /["']/.test(sep) || looksRandom(value) || /sig=/i.test(value) ? `${name}${sep}${REDACTED}` : match;
}

/** A token carrying `sig=` loses its query (URL) or all of it (a bare `sv=…&sig=…`). */
function redactSasToken(token: string): string {
  const lower = token.toLowerCase();
  const at = Math.max(lower.indexOf("sig="), lower.indexOf("sig%3d"));
  if (at < 0) return token;
  const query = token.lastIndexOf("?", at);
  return query >= 0 ? `${token.slice(0, query + 1)}${REDACTED}` : REDACTED;
}

/** Mixed upper case, lower case and digits (or base64's + and /): a key, not a word or a name. */
function looksRandom(value: string): boolean {
  const upper = /[A-Z]/.test(value);
  const lower = /[a-z]/.test(value);
  const other = /[0-9+/%]/.test(value);
  return (upper && lower) || ((upper || lower) && other);
}

/** True when `text` holds something `redact` would remove: the cue to mask an input box. */
export function holdsSecret(text: string): boolean {
  return redact(text) !== text;
}
