import { redirect } from 'react-router';
import { logEvent } from '@web/lib/analytics';
import type { GuardDecision } from './guards';
import { showToast } from '@web/lib/toast';

/** The last location the app showed; guard failures go back to it ("navigation aborted", spec §8). */
let lastLocation: string | undefined;

export function rememberLocation(url: string) {
  lastLocation = url;
}

export function forgetLocation() {
  lastLocation = undefined;
}

/**
 * Spec §8: a failure in a guard is shown as a notification, logged as a controller_error event, and the
 * navigation is aborted — the user stays where they were (or lands on `fallback` on a first load).
 */
export function abortNavigation(message: string, attemptedUrl: string, fallback: string): never {
  showToast({ color: 'red', title: 'Cannot open this page', message, autoClose: 6000 });
  logEvent('controller_error', { message }, attemptedUrl);
  const back = lastLocation && lastLocation !== attemptedUrl ? lastLocation : fallback;
  throw redirect(back);
}

/** Carries out a guard decision inside a loader: redirects and denials throw, null lets the route load. */
export function applyDecision(decision: GuardDecision, attemptedUrl: string): void {
  if (!decision) return;
  if ('redirect' in decision) throw redirect(decision.redirect);
  abortNavigation(decision.deny, attemptedUrl, decision.fallback);
}
