/**
 * The rule every URL a model chooses follows: only http(s) pages on the public internet. A model
 * can be talked into anything by a note or a page it read, so it must not reach what only this
 * computer can: the user's router, a local model server, a cloud's metadata address, an intranet
 * wiki. URLs the user attaches themselves are theirs to choose and skip this rule.
 *
 * The host is judged as written (after the URL parser's normalisation, which turns
 * "http://2130706433/" and "http://0x7f.1/" into 127.0.0.1): a public name whose DNS answer is a
 * private address is not caught here (the fetch port resolves names, not this code).
 */

/** Why `url` may not be fetched for a model, or null when it may. */
export function refusedForModel(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${url}" is not a URL`;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return `only http and https pages can be read, not ${parsed.protocol.replace(/:$/, "")}: links`;
  if (parsed.username !== "" || parsed.password !== "") return "a URL carrying a user name or password is not read";
  const host = parsed.hostname.toLowerCase().replace(/\.$/, "");
  const why = privateHostReason(host);
  return why === null ? null : `${host} is ${why}, which only this computer's network can reach: the model may read public pages only (the user can attach such a page themselves)`;
}

/** Names that only ever mean a machine on this computer or its local network. */
const LOCAL_SUFFIXES = [".localhost", ".local", ".internal", ".intranet", ".lan", ".home", ".home.arpa", ".corp", ".localdomain"];

function privateHostReason(host: string): string | null {
  if (host === "") return "no host";
  if (host.startsWith("[")) return privateIPv6Reason(host.slice(1, -1));
  const v4 = ipv4Octets(host);
  if (v4) return privateIPv4Reason(v4);
  if (host === "localhost" || LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) return "a local name";
  // A name without a dot ("router", "wiki") is one the local network's resolver answers.
  if (!host.includes(".")) return "a local network name";
  return null;
}

/** The four numbers of a dotted IPv4 address (the URL parser writes every IPv4 form so), or null. */
function ipv4Octets(host: string): number[] | null {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return null;
  const octets = parts.map(Number);
  return octets.every((octet) => octet <= 255) ? octets : null;
}

/** Address blocks that are not the public internet (RFC 6890's special-purpose registry, in short). */
const PRIVATE_IPV4_BLOCKS: ReadonlyArray<readonly [number, number, number, string]> = [
  // [first octet, second octet start, second octet end (inclusive), what it is]
  [0, 0, 255, "a \"this network\" address"],
  [10, 0, 255, "a private address"],
  [100, 64, 127, "a carrier-grade NAT address"],
  [127, 0, 255, "a loopback address"],
  [169, 254, 254, "a link-local address (cloud metadata services live there)"],
  [172, 16, 31, "a private address"],
  [192, 168, 168, "a private address"],
  [198, 18, 19, "a benchmarking network address"],
];

function privateIPv4Reason([a = 0, b = 0, c = 0]: number[]): string | null {
  for (const [first, from, to, what] of PRIVATE_IPV4_BLOCKS) if (a === first && b >= from && b <= to) return what;
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return "a reserved address";
  if (a >= 224) return "a multicast or reserved address";
  return null;
}

function privateIPv6Reason(address: string): string | null {
  const words = ipv6Words(address);
  if (!words) return "an address that cannot be read";
  if (words.every((word) => word === 0)) return "the unspecified address";
  if (words.slice(0, 7).every((word) => word === 0) && words[7] === 1) return "a loopback address";
  const first = words[0] ?? 0;
  if ((first & 0xfe00) === 0xfc00) return "a private (unique local) address";
  if ((first & 0xffc0) === 0xfe80) return "a link-local address";
  if ((first & 0xff00) === 0xff00) return "a multicast address";
  // IPv4 carried inside IPv6: mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:ab.cd::).
  const embedded =
    words.slice(0, 5).every((word) => word === 0) && words[5] === 0xffff
      ? [words[6] ?? 0, words[7] ?? 0]
      : first === 0x64 && words[1] === 0xff9b
        ? [words[6] ?? 0, words[7] ?? 0]
        : first === 0x2002
          ? [words[1] ?? 0, words[2] ?? 0]
          : null;
  if (embedded) {
    const [high, low] = embedded as [number, number];
    return privateIPv4Reason([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  }
  return null;
}

/** The eight 16-bit words of an IPv6 address as the URL parser writes it (hex, "::" compressed). */
function ipv6Words(address: string): number[] | null {
  const [head = "", tail] = address.split("::");
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((word) => (/^[0-9a-f]{1,4}$/i.test(word) ? parseInt(word, 16) : NaN)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const missing = 8 - left.length - right.length;
  if ((tail === undefined && missing !== 0) || missing < 0) return null;
  const words = [...left, ...Array<number>(missing).fill(0), ...right];
  return words.some(Number.isNaN) ? null : words;
}
