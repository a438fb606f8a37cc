import crypto from 'node:crypto';
import { loadConfig } from '../config';
import { isSignedEventBody, webhookPublicKey } from './sendgrid-signature';

const pair = crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const der = pair.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
const pem = pair.publicKey.export({ format: 'pem', type: 'spki' }).toString();
const body = Buffer.from('[{"event":"bounce"}]');
const timestamp = '1700000000';
const signature = crypto.sign('sha256', Buffer.concat([Buffer.from(timestamp), body]), pair.privateKey);

describe("SendGrid's signed event webhook", () => {
  it('takes the key as base64 DER (as SendGrid shows it) or PEM', () => {
    for (const text of [der, pem, `\n${der}\n`]) {
      expect(isSignedEventBody(webhookPublicKey(text), signature.toString('base64'), timestamp, body)).toBe(
        true,
      );
    }
  });

  it('refuses another body, timestamp or signature, and a missing one', () => {
    const key = webhookPublicKey(der);
    const base64 = signature.toString('base64');
    expect(isSignedEventBody(key, base64, timestamp, Buffer.from('[]'))).toBe(false);
    expect(isSignedEventBody(key, base64, '1700000001', body)).toBe(false);
    expect(isSignedEventBody(key, 'bm90IGEgc2lnbmF0dXJl', timestamp, body)).toBe(false);
    expect(isSignedEventBody(key, undefined, timestamp, body)).toBe(false);
    expect(isSignedEventBody(key, base64, undefined, body)).toBe(false);
  });

  it('refuses at start a SENDGRID_WEBHOOK_PUBLIC_KEY that is not an ECDSA public key', () => {
    const rsa = crypto
      .generateKeyPairSync('rsa', { modulusLength: 1024 })
      .publicKey.export({ format: 'der', type: 'spki' })
      .toString('base64');
    const env = { DATA_DIR: '/tmp/marquee-config-test', MARQUEE_SECRET: 'x' };
    expect(() => loadConfig({ ...env, SENDGRID_WEBHOOK_PUBLIC_KEY: 'not a key' })).toThrow(
      /SENDGRID_WEBHOOK_PUBLIC_KEY is not a public key/,
    );
    expect(() => loadConfig({ ...env, SENDGRID_WEBHOOK_PUBLIC_KEY: rsa })).toThrow(/ECDSA/);
    expect(loadConfig({ ...env, SENDGRID_WEBHOOK_PUBLIC_KEY: der }).sendgridWebhookPublicKey).toBe(der);
  });
});
