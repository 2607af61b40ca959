// Commit subjects are one line of at most 72 characters, the detail in the body (CONTRIBUTING in
// docs/contributing.md). Checked for every commit since the rule was kept (`SINCE`; older history
// stays as it was written). Run by .ci/run; outside a git checkout it has nothing to check.
import { execFileSync } from 'node:child_process';

const SINCE = 'f6ca789';
const LIMIT = 72;

let log;
try {
  log = execFileSync('git', ['log', '--format=%h%x09%s', `${SINCE}..HEAD`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
} catch {
  console.log('check-commit-subjects: not a git checkout with its history: nothing to check');
  process.exit(0);
}
const long = log.split('\n').filter(Boolean).map((line) => line.split('\t')).filter(([, subject]) => subject.length > LIMIT);
for (const [hash, subject] of long) console.error(`${hash}: subject of ${subject.length} characters (at most ${LIMIT}): ${subject}`);
if (long.length) process.exit(1);
console.log(`check-commit-subjects: every subject since ${SINCE} fits in ${LIMIT} characters`);
