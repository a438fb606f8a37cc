// The failed tests of a Vitest or Playwright JSON report, a line each, for the summary `npm test` ends with.
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

/** A failure's first line, short enough to read in a summary. */
const firstLine = (message = '') =>
  stripVTControlCharacters(message)
    .split('\n')
    .find((line) => line.trim())
    ?.trim()
    .slice(0, 300) ?? '';

/** A line per failed test of a Vitest JSON report (`file › test: error`), files named from `root`. */
export function vitestFailures(report, root) {
  return report.testResults.flatMap((file) => {
    const where = path.relative(root, file.name);
    const tests = file.assertionResults
      .filter((test) => test.status === 'failed')
      .map((test) => `${where} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    // A file can fail with no failed test: an error in a hook or while loading it.
    if (tests.length === 0 && file.status === 'failed') tests.push(`${where}: ${firstLine(file.message)}`);
    return tests;
  });
}

/** A line per unexpected result in a Playwright JSON report's suites (`file › describe › test: error`). */
export function playwrightFailures(suites = [], titles = []) {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests
        .filter((test) => test.status === 'unexpected')
        .map((test) => {
          const error = test.results.at(-1)?.error?.message;
          return `${[...titles, suite.title, spec.title].filter(Boolean).join(' › ')}: ${firstLine(error)}`;
        }),
    ),
    ...playwrightFailures(suite.suites, [...titles, suite.title]),
  ]);
}
