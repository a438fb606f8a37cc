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

  // A sign-up answered 500 when the idle worker ended just as the next password arrived: the old
  // worker's exit failed the request already sent to its successor.
  it('judges a password sent while the previous worker is still ending', async () => {
    await zxcvbnInWorker('warm up', []);
    const stopping = stopPasswordWorker();
    const verdict = await zxcvbnInWorker('plenty of entropy here', []);
    await stopping;
    expect(strengthOf(verdict).isStrongEnough).toBe(true);
  });
});
