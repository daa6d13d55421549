/**
 * Whether a host is this machine: a loopback address parsed as one, never a
 * name that merely starts like one. `127.table.core.windows.net` is an Azure
 * account named "127", and treating it as local would skip the confirmation
 * a real (billed) account gets.
 */

/**
 * True for `localhost` (with or without a trailing dot), an IPv4 literal in
 * 127.0.0.0/8, `::1` and IPv4-mapped loopback (`::ffff:127.x.x.x`), with or
 * without brackets. Hosts are read the way a URL reads them, so the forms a
 * URL accepts for an IPv4 address (`127.1`, `0x7f.1`, `2130706433`) count, and
 * a bare `127` (which a URL reads as 0.0.0.127) does not. `*.localhost` names
 * do not count: the system resolver need not send them to loopback.
 */
export function isLoopbackHost(host: string): boolean {
  const canonical = canonicalHost(host);
  if (canonical === undefined) return false;
  if (canonical === "localhost") return true;
  if (canonical.startsWith("[")) return isLoopbackIpv6(canonical.slice(1, -1));
  const v4 = ipv4Octets(canonical);
  return v4 !== undefined && v4[0] === 127;
}

/** The host as the URL parser normalises it (lower case, IPv4 in dotted decimal, IPv6 compressed in brackets), or undefined. */
function canonicalHost(host: string): string | undefined {
  let h = host.trim();
  if (!h) return undefined;
  // A bare IPv6 address needs brackets to be read as a URL's host.
  if (h.includes(":") && !h.startsWith("[")) h = `[${h}]`;
  try {
    const name = new URL(`http://${h}/`).hostname;
    return name.endsWith(".") ? name.slice(0, -1) : name;
  } catch {
    return undefined;
  }
}

function ipv4Octets(host: string): number[] | undefined {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return undefined;
  const octets = parts.map(Number);
  return octets.every((o) => o <= 255) ? octets : undefined;
}

/** `::1`, and `::ffff:7f00:1`-style IPv4-mapped loopback, in the URL parser's compressed form. */
function isLoopbackIpv6(address: string): boolean {
  if (address === "::1") return true;
  const mapped = /^::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}$/.exec(address);
  return mapped !== null && parseInt(mapped[1], 16) >> 8 === 127;
}
