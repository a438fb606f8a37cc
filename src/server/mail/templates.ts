import type { Mail } from './mailer';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function linkMail(
  to: string,
  subject: string,
  intro: string,
  action: string,
  link: string,
  outro: string,
): Mail {
  return {
    to,
    subject,
    link,
    text: `${intro}\n\n${action}: ${link}\n\n${outro}\n\n— Marquee`,
    html:
      `<p>${escapeHtml(intro)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>` +
      `<p style="color:#666">${escapeHtml(outro)}</p><p>— Marquee</p>`,
  };
}

export const verifyEmailMail = (to: string, name: string, link: string) =>
  linkMail(
    to,
    'Verify your email address for Marquee',
    `Hi ${name}, please confirm that ${to} is your email address.`,
    'Verify email',
    link,
    'The link works once and expires in 48 hours. If you did not sign up, ignore this message.',
  );

export const changeEmailMail = (to: string, name: string, link: string) =>
  linkMail(
    to,
    'Confirm your new email address for Marquee',
    `Hi ${name}, confirm that you want to use ${to} to sign in to Marquee.`,
    'Confirm new email',
    link,
    'The link works once and expires in 48 hours. If you did not ask for this, ignore this message.',
  );

/** Sent instead of a verification link when someone signs up with an address that has an account. */
export const signUpAttemptMail = (to: string, name: string, link: string) =>
  linkMail(
    to,
    'Someone tried to create a Marquee account with your address',
    `Hi ${name}, someone tried to create a new Marquee account with ${to}, which already has one. If it was you, sign in with your password instead, or choose a new one.`,
    'Reset your password',
    link,
    'If it was not you, ignore this message: nothing has changed and no new account was created.',
  );

export const resetPasswordMail = (to: string, name: string, link: string) =>
  linkMail(
    to,
    'Reset your Marquee password',
    `Hi ${name}, someone asked to reset the password of your Marquee account.`,
    'Choose a new password',
    link,
    'The link works once and expires in 1 hour. If it was not you, ignore this message: your password is unchanged.',
  );

/** Sent when an account signs in from a device (browser) none of its sessions has used. */
export const newDeviceMail = (
  to: string,
  name: string,
  device: { userAgent: string; address: string; at: string },
  link: string,
) =>
  linkMail(
    to,
    'New sign-in to your Marquee account',
    `Hi ${name}, your Marquee account was just signed in to from a new device: ${device.userAgent}, from ${device.address}, at ${device.at}.`,
    'Review your sessions',
    link,
    'If it was you, there is nothing to do. If not, end that session from Sessions in the user menu and reset your password.',
  );

/** What an invitation makes of the person: their roles by name, and whether they manage the workspace. */
interface InvitedAs {
  roleNames: readonly string[];
  isManager: boolean;
}

const listOf = (names: readonly string[]) =>
  names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

/** 'a workspace manager and Editor', 'Editor and Reviewer', or 'a member' without roles. */
const invitedAsText = ({ roleNames, isManager }: InvitedAs) =>
  listOf([...(isManager ? ['a workspace manager'] : []), ...roleNames]) || 'a member';

/**
 * The invitation names the role it gives, and its link goes where the invitee starts: creating their
 * account when the address has none, else signing in.
 */
export function invitationMail(
  to: string,
  invite: { workspaceName: string; inviterName: string; as: InvitedAs; hasAccount: boolean },
  link: string,
): Mail {
  const { workspaceName, inviterName, hasAccount } = invite;
  return linkMail(
    to,
    `${inviterName} invited you to ${workspaceName} on Marquee`,
    `${inviterName} invited you to join the workspace "${workspaceName}" on Marquee as ${invitedAsText(invite.as)}.`,
    hasAccount ? 'Sign in and join' : 'Create your account and join',
    link,
    hasAccount
      ? `Sign in with ${to} to join.`
      : `Create your Marquee account with ${to}; you join once you have confirmed the address.`,
  );
}
