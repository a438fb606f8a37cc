import { Resolver } from 'node:dns/promises';
import { SENDER_MESSAGES, type DnsRecord } from '@shared/api/senders';

/** The records a sending domain publishes: SPF at the domain, DKIM at `{selector}._domainkey.{domain}`. */
export function recordsFor(
  domain: { domain: string; selector: string; publicKey: string },
  spfInclude: string | undefined,
): DnsRecord[] {
  return [
    {
      kind: 'spf',
      type: 'TXT',
      name: domain.domain,
      value: spfInclude ? `v=spf1 include:${spfInclude} ~all` : 'v=spf1 a mx ~all',
    },
    {
      kind: 'dkim',
      type: 'TXT',
      name: dkimName(domain),
      value: `v=DKIM1; k=rsa; p=${domain.publicKey}`,
    },
  ];
}

const dkimName = (domain: { domain: string; selector: string }) =>
  `${domain.selector}._domainkey.${domain.domain}`;

/** A name's TXT records, each one's strings joined (a 2048-bit key is split into strings of ≤ 255). */
async function txtRecords(resolver: Resolver, name: string): Promise<string[] | { failed: string }> {
  try {
    return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    // No such name or no TXT at it: simply not published (yet).
    if (code === 'ENOTFOUND' || code === 'ENODATA') return [];
    return { failed: SENDER_MESSAGES.lookupFailed(name, code) };
  }
}

/** The tags of a DKIM record (`v=DKIM1; k=rsa; p=…`), values without folding white space. */
function dkimTags(record: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of record.split(';')) {
    const at = part.indexOf('=');
    if (at > 0) tags.set(part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).replace(/\s+/g, ''));
  }
  return tags;
}

/**
 * Looks the domain's SPF and DKIM records up and answers what is missing or wrong (nothing: verified).
 * `servers` (DNS_SERVERS) replaces the system's resolvers, e.g. with a local server in tests.
 */
export async function checkDomain(
  domain: { domain: string; selector: string; publicKey: string },
  options: { servers: string[]; spfInclude?: string },
): Promise<string[]> {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  if (options.servers.length > 0) resolver.setServers(options.servers);
  const problems: string[] = [];

  const spfAnswer = await txtRecords(resolver, domain.domain);
  if ('failed' in spfAnswer) problems.push(spfAnswer.failed);
  else {
    const spf = spfAnswer.filter((record) => /^v=spf1(\s|$)/i.test(record.trim()));
    if (spf.length === 0) problems.push(SENDER_MESSAGES.spfMissing(domain.domain));
    else if (spf.length > 1) problems.push(SENDER_MESSAGES.spfSeveral(domain.domain, spf.length));
    else if (
      options.spfInclude &&
      !spf[0].toLowerCase().split(/\s+/).includes(`include:${options.spfInclude.toLowerCase()}`)
    ) {
      problems.push(SENDER_MESSAGES.spfInclude(domain.domain, options.spfInclude));
    }
  }

  const name = dkimName(domain);
  const dkimAnswer = await txtRecords(resolver, name);
  if ('failed' in dkimAnswer) problems.push(dkimAnswer.failed);
  else {
    const dkim = dkimAnswer.map(dkimTags).filter((tags) => tags.get('v')?.toUpperCase() === 'DKIM1');
    if (dkim.length === 0) problems.push(SENDER_MESSAGES.dkimMissing(name));
    else if (!dkim.some((tags) => tags.get('p') === domain.publicKey)) {
      problems.push(SENDER_MESSAGES.dkimWrongKey(name));
    }
  }
  return problems;
}
