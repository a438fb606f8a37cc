// `npm run audit:prod`: fails when a runtime dependency has a high or critical advisory. Where the
// registry answers no audit (a mirror without the advisories endpoint), it says so and passes.
import { spawnSync } from 'node:child_process';

const result = spawnSync('npm', ['audit', '--omit=dev', '--json'], { encoding: 'utf8' });
let report;
try {
  report = JSON.parse(result.stdout);
} catch {
  report = undefined;
}
const counts = report?.metadata?.vulnerabilities;
if (!counts) {
  const reason = report?.statusCode ? `the registry answered ${report.statusCode}` : 'no report';
  console.log(`npm audit could not be run (${reason}): runtime dependencies not audited`);
  process.exit(0);
}
const serious = (counts.high ?? 0) + (counts.critical ?? 0);
console.log(
  `npm audit of runtime dependencies: ${counts.critical ?? 0} critical, ${counts.high ?? 0} high, ` +
    `${counts.moderate ?? 0} moderate, ${counts.low ?? 0} low`,
);
if (serious > 0) {
  for (const [name, entry] of Object.entries(report.vulnerabilities ?? {}))
    if (entry.severity === 'high' || entry.severity === 'critical')
      console.log(`  ${entry.severity}: ${name} ${entry.range ?? ''}`);
  process.exit(1);
}
