// Run before the test suite: the e2e tests drive the built app.
import { buildIfNeeded } from './build-if-needed.mjs';
buildIfNeeded();
