// The end-to-end tests drive Debian's Chromium (browser downloads are not possible here).
// Fail early with the fix instead of a long Playwright stack trace.
import { existsSync } from 'node:fs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (!existsSync(CHROMIUM_PATH)) {
  console.error(
    `End-to-end tests need Chromium at ${CHROMIUM_PATH}, and it is not there.\n` +
      'Install it with:  sudo apt-get update && sudo apt-get install -y chromium\n' +
      '(or point CHROMIUM_PATH at another Chromium binary).',
  );
  process.exit(1);
}
