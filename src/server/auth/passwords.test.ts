import { hashPassword, verifyPassword } from './passwords';

describe('password hashes', () => {
  it('are argon2id with 46 MiB and one pass, and verify only the password they were made from', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=47104,p=1,t=1\$/);
    expect(await verifyPassword(hash, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(hash, 'correct horse battery!')).toBe(false);
  });

  it('still verify when they were made with 19 MiB and two passes', async () => {
    const older =
      '$argon2id$v=19$m=19456,p=1,t=2$qleo0T4Hr71KBnFRFwmFQA$LKQsIx2sl+cc62o8NpiG/+Oewzx0mhINLBP6OB33Lrk';
    expect(await verifyPassword(older, 'an older password')).toBe(true);
    expect(await verifyPassword(older, 'another password')).toBe(false);
  });

  it('never verify an unknown account, nor a hash that is not one', async () => {
    expect(await verifyPassword(undefined, 'correct horse battery')).toBe(false);
    expect(await verifyPassword('not a hash', 'correct horse battery')).toBe(false);
  });
});
