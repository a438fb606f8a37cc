// The types of test-failures.mjs, for its test.
export function vitestFailures(
  report: {
    testResults: {
      name: string;
      status: string;
      message: string;
      assertionResults: { fullName: string; status: string; failureMessages?: string[] }[];
    }[];
  },
  root: string,
): string[];

interface PlaywrightSuite {
  title: string;
  specs?: {
    title: string;
    tests: { status: string; results: { error?: { message?: string } }[] }[];
  }[];
  suites?: PlaywrightSuite[];
}

export function playwrightFailures(suites?: PlaywrightSuite[], titles?: string[]): string[];
