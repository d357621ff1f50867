const ADJECTIVES = [
  'amber',
  'brisk',
  'cobalt',
  'dusky',
  'ember',
  'fallow',
  'gilded',
  'hazel',
  'indigo',
  'jade',
  'kindled',
  'lunar',
  'mossy',
  'nimble',
  'ochre',
  'pewter',
  'quartz',
  'russet',
  'sable',
  'tawny',
  'umber',
  'velvet',
  'wintry',
  'xenial',
  'yarrow',
  'zesty',
  'copper',
  'frosted',
  'golden',
  'silver',
  'scarlet',
  'misty',
] as const;

const NOUNS = [
  'falcon',
  'badger',
  'comet',
  'delta',
  'ermine',
  'fjord',
  'glacier',
  'heron',
  'ibis',
  'juniper',
  'kestrel',
  'lantern',
  'marten',
  'nebula',
  'otter',
  'pylon',
  'quokka',
  'raven',
  'summit',
  'thistle',
  'urchin',
  'vortex',
  'walrus',
  'yak',
  'zephyr',
  'beacon',
  'cinder',
  'dune',
  'eddy',
  'ferret',
  'grotto',
  'harbor',
] as const;

/**
 * A deterministic generator of floats in [0, 1) from a 32-bit seed (mulberry32): core has no
 * randomness of its own, so the caller's seed decides the values and a test can repeat them.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * `count` distinct values like `amber-falcon-4821` (32 × 32 × 9,000 ≈ 9.2 million of them):
 * no model can guess one, and a lower-case, hyphenated word-word-number survives every quoting
 * a reply may wrap it in.
 */
export function makeProbeValues(count: number, seed: number): string[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const values = new Set<string>();
  while (values.size < count) {
    values.add(`${pick(ADJECTIVES)}-${pick(NOUNS)}-${1000 + Math.floor(random() * 9000)}`);
  }
  return [...values];
}
