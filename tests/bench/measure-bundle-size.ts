import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BenchContext } from './bench-context.ts';
import type { BenchOutcome } from './bench-result.ts';

const TARGET_KIB = 200;
const KIB = 1024;

/** Every script and modulepreload that index.html loads: the first load, not the lazy chunks. */
function entryAssets(html: string): { scripts: string[]; styles: string[] } {
  const attribute = (tag: string, name: string): string | undefined =>
    new RegExp(`\\s${name}="([^"]+)"`).exec(tag)?.[1];
  const scripts = new Set<string>();
  const styles = new Set<string>();
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
    const rel = attribute(tag, 'rel');
    if (tag.startsWith('<script') && attribute(tag, 'type') === 'module') scripts.add(attribute(tag, 'src')!);
    else if (rel === 'modulepreload') scripts.add(attribute(tag, 'href')!);
    else if (rel === 'stylesheet') styles.add(attribute(tag, 'href')!);
  }
  return { scripts: [...scripts], styles: [...styles] };
}

const gzipKib = (path: string): { raw: number; gzip: number } => {
  const bytes = readFileSync(path);
  return { raw: bytes.length / KIB, gzip: gzipSync(bytes, { level: 9 }).length / KIB };
};

/** The main bundle as gzip -9 (SPEC §7: < 200 KB; KiB here, as stack.md §4 measures). */
export async function measureBundleSize(context: BenchContext, appDir: string): Promise<BenchOutcome> {
  context.log('bundle size of the entry chunks');
  const html = readFileSync(join(appDir, 'index.html'), 'utf8');
  const { scripts, styles } = entryAssets(html);
  const sizeOf = (url: string): { raw: number; gzip: number } =>
    gzipKib(join(appDir, url.replace(/^\//, '')));
  const js = scripts.map(sizeOf);
  const css = styles.map(sizeOf);
  const gzip = js.reduce((sum, size) => sum + size.gzip, 0);
  const raw = js.reduce((sum, size) => sum + size.raw, 0);
  const cssGzip = css.reduce((sum, size) => sum + size.gzip, 0);
  return {
    rows: [
      {
        name: 'main bundle: JS loaded by index.html, gzip -9',
        size: null,
        value: Math.round(gzip * 10) / 10,
        unit: 'KiB',
        target: `< ${TARGET_KIB} KiB`,
        met: gzip < TARGET_KIB,
        note: `${scripts.length} chunk(s) (${scripts.map((url) => url.split('/').pop()).join(', ')}), ${raw.toFixed(1)} KiB raw; CSS ${cssGzip.toFixed(1)} KiB gzip besides`,
      },
    ],
    skips: [],
  };
}
