import fs from 'node:fs';
import { playwrightFailures, vitestFailures } from './test-failures.mjs';

// Reports the two runners wrote for small specs: a failed test, a passing one, and (Vitest) a file
// whose beforeAll threw, so none of its tests ran.
const report = (name: string) =>
  JSON.parse(fs.readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));

describe('the failures npm test names after its totals', () => {
  it('names each failed Vitest test, and a file that failed outside its tests', () => {
    expect(vitestFailures(report('vitest-report.json'), '/project')).toEqual([
      'a.test.ts › outer fails here: AssertionError: expected 1 to be 2 // Object.is equality',
      'b.test.ts: the database is not there',
    ]);
  });

  it('names each unexpected Playwright result with its describe blocks and its error’s first line', () => {
    expect(playwrightFailures(report('playwright-report.json').suites)).toEqual([
      'fx.spec.ts › top level fails: Error: boom',
      'fx.spec.ts › outer › fails here: Error: the count',
    ]);
  });

  it('names nothing when nothing failed', () => {
    expect(vitestFailures({ testResults: [] }, '/project')).toEqual([]);
    expect(playwrightFailures(undefined)).toEqual([]);
  });
});
