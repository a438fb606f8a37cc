import { knownWords, loadPasswordJudge, strengthOf } from '@shared/text/password-strength';
import { stopPasswordWorker, zxcvbnInWorker } from './password-worker';

afterAll(() => stopPasswordWorker());

describe('zxcvbn in a worker thread', () => {
  it('judges as zxcvbn in this thread does, and starts again after it was stopped', async () => {
    const judge = await loadPasswordJudge();
    const inputs = ['Zorblax Quentin', 'zorblax@example.test'];
    for (const password of ['password', 'zorblax quentin', 'correct horse battery']) {
      const verdict = await zxcvbnInWorker(password, knownWords(inputs));
      expect(strengthOf(verdict)).toEqual(judge(password, inputs));
    }
    await stopPasswordWorker();
    const again = await Promise.all(['12345678', 'plenty of entropy here'].map((p) => zxcvbnInWorker(p, [])));
    expect(again.map((v) => strengthOf(v).isStrongEnough)).toEqual([false, true]);
  });
});
