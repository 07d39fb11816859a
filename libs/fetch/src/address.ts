import ipaddr from "ipaddr.js";

/**
 * True when `ip` must not be fetched from without `allowPrivate`: anything
 * that is not a globally routable unicast address. That covers private
 * (RFC 1918), loopback, link-local (169.254.0.0/16 — cloud metadata at
 * 169.254.169.254 — and fe80::/10), unique-local fc00::/7, multicast,
 * unspecified (0.0.0.0/8, ::), broadcast, CGNAT 100.64.0.0/10, benchmarking
 * 198.18.0.0/15, documentation and reserved ranges (240.0.0.0/4, …), and
 * IPv6 outside the global unicast block 2000::/3 (IPv4-compatible ::a.b.c.d,
 * discard, site-local, …). IPv6 forms that embed an IPv4 address are judged
 * by that address: IPv4-mapped ::ffff:a.b.c.d and NAT64 64:ff9b::a.b.c.d
 * (what DNS64 hands an IPv6-only host). 6to4, Teredo and the other
 * transition ranges are refused outright. Text that is not an IP address
 * counts as private: refuse when in doubt.
 */
export function isPrivateAddress(ip: string): boolean {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // parse() also accepts "127.1", "0x7f.0.0.1" and zone ids; that is fine:
    // it reads them as the address the OS would.
    addr = ipaddr.parse(ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip);
  } catch {
    return true;
  }
  return addr.kind() === "ipv4" ? isPrivateV4(addr as ipaddr.IPv4) : isPrivateV6(addr as ipaddr.IPv6);
}

function isPrivateV4(addr: ipaddr.IPv4): boolean {
  // "unicast" is ipaddr.js's name for "in none of the special ranges".
  return addr.range() !== "unicast";
}

function isPrivateV6(addr: ipaddr.IPv6): boolean {
  const range = addr.range();
  if (range === "ipv4Mapped") return isPrivateV4(addr.toIPv4Address());
  const p = addr.parts;
  if (range === "rfc6052") {
    // 64:ff9b::/96 is the well-known NAT64 prefix: judge the IPv4 address in
    // its last 32 bits. 64:ff9b:1::/48 is for local NAT64 deployments.
    const wellKnown = p[0] === 0x64 && p[1] === 0xff9b && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0;
    if (!wellKnown) return true;
    const hi = p[6] ?? 0;
    const lo = p[7] ?? 0;
    return isPrivateV4(new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]));
  }
  if (range !== "unicast") return true;
  // Only 2000::/3 is allocated as global unicast; the rest of what ipaddr.js
  // calls "unicast" is reserved (including deprecated ::a.b.c.d).
  return ((p[0] ?? 0) & 0xe000) !== 0x2000;
}
