/**
 * The title for the next session of a lineage (`get_next_title_in_lineage`, hermes-reference §11):
 * strip a trailing ` #N`; if neither the base nor any `base #k` is taken, the base itself;
 * otherwise `base #<max(1, every k) + 1>` — so the second session of "Fix tests" is "Fix tests #2".
 */
export function getNextTitleInLineage(title: string, existingTitles: Iterable<string>): string {
  const base = title.replace(/ #\d+$/, '');
  const numbered = new RegExp(`^${escapeRegExp(base)} #(\\d+)$`);
  let taken = false;
  let highest = 1;
  for (const existing of existingTitles) {
    if (existing === base) taken = true;
    const match = numbered.exec(existing);
    if (match) {
      taken = true;
      highest = Math.max(highest, Number(match[1]));
    }
  }
  return taken ? `${base} #${highest + 1}` : base;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
