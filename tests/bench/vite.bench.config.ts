// The benchmark's browser page (tests/bench/page/): the app's own Vite config, so the worker it
// starts is built from the same source with the same settings, but a page of its own, so nothing
// benchmark-only ships in the app. run-bench.ts builds and previews it; by hand:
//   npx vite build -c tests/bench/vite.bench.config.ts && npx vite preview -c tests/bench/vite.bench.config.ts
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mergeConfig } from 'vite';
import appConfig from '../../vite.config.ts';

export default mergeConfig(appConfig, {
  root: fileURLToPath(new URL('./page', import.meta.url)),
  build: { outDir: join(tmpdir(), 'context-lab-bench', 'bench-page'), emptyOutDir: true },
});
