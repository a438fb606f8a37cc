import type { TokenSet } from '../providers/oauth';
import { seal, unseal } from '../lib/sealing';

/** Provider tokens as sealed into a service item's `encTokens`; never sent to a browser in the clear. */
export interface ServiceTokens extends TokenSet {
  /** The profile fetched with these tokens; a save takes the item's profile from here. */
  profile: Record<string, unknown>;
}

const tokensPurpose = (workspaceId: string, provider: string) => `service-tokens:${workspaceId}:${provider}`;

export const sealTokens = (secret: string, workspaceId: string, provider: string, tokens: ServiceTokens) =>
  seal(secret, tokensPurpose(workspaceId, provider), tokens);

export const unsealTokens = (secret: string, workspaceId: string, provider: string, sealed: unknown) =>
  unseal<ServiceTokens>(secret, tokensPurpose(workspaceId, provider), sealed);
