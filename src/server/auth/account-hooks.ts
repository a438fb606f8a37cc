import type { AppContext } from '../context';
import type { Db, Tx } from '../db/client';

/** An account whose owner has just shown they hold its address, and the request's client address. */
export interface VerifiedAccount {
  id: string;
  email: string;
  name: string;
  address?: string | null;
}

/**
 * What other concepts do once an account's address is known to be its owner's (a verified sign-in, a
 * confirmed link), in the transaction of that step: joining the workspaces that invited the address.
 * Registered when the app is built (app.ts), so auth imports none of them.
 */
type AccountVerifiedHook = (db: Db | Tx, account: VerifiedAccount) => Promise<unknown>;

declare module '../context' {
  interface AppContext {
    /** Run in this order after each verified sign-in and each confirmed verification link. */
    accountVerifiedHooks: readonly AccountVerifiedHook[];
  }
}

export async function runAccountVerifiedHooks(ctx: AppContext, db: Db | Tx, account: VerifiedAccount) {
  for (const hook of ctx.accountVerifiedHooks) await hook(db, account);
}

/**
 * Asked before a password is checked, with the address typed: a guard throws to refuse password sign-in
 * for it (single sign-on enforced for its domain). Registered in app.ts like the hooks above.
 */
type PasswordSignInGuard = (db: Db, email: string) => Promise<void>;

declare module '../context' {
  interface AppContext {
    passwordSignInGuards: readonly PasswordSignInGuard[];
  }
}
