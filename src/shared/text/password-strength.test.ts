import { loadPasswordJudge, weakPasswordMessage } from './password-strength';

describe('password strength', () => {
  it.each(['password', '12345678', '        ', 'qwertyuiop', 'Password1!'])(
    'refuses %j',
    async (password) => {
      const judge = await loadPasswordJudge();
      const strength = judge(password);
      expect(strength.isStrongEnough).toBe(false);
      expect(weakPasswordMessage(strength)).toMatch(/^Password is too easy to guess\. \S/);
    },
  );

  it('counts the user name and email as known words', async () => {
    const judge = await loadPasswordJudge();
    expect(judge('zorblax quentin', []).isStrongEnough).toBe(true);
    expect(judge('zorblax quentin', ['Zorblax Quentin', 'zorblax@example.test']).isStrongEnough).toBe(false);
  });

  it('accepts a few unrelated words', async () => {
    const judge = await loadPasswordJudge();
    expect(judge('correct horse battery')).toMatchObject({ isStrongEnough: true, feedback: '' });
  });
});
