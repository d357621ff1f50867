const pad = (value: number): string => String(value).padStart(2, '0');

/** Epoch milliseconds as local `2026-11-22 14:05`: sortable, and the same in every locale. */
export function formatDateTime(milliseconds: number): string {
  const date = new Date(milliseconds);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** `14:05` when on the same local day as `reference`, else the full date and time. */
export function formatTimeNear(milliseconds: number, reference: number): string {
  const full = formatDateTime(milliseconds);
  return full.slice(0, 10) === formatDateTime(reference).slice(0, 10) ? full.slice(11) : full;
}
