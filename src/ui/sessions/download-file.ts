/** How long the object URL outlives the click: the download has started by then. */
const REVOKE_AFTER_MS = 10_000;

/**
 * Saves text as a file through the browser's download: a Blob, an object URL and a temporary link.
 * The state layer produced the text; only this DOM step lives in the UI.
 */
export function downloadFile(file: { fileName: string; mimeType: string; text: string }): void {
  const url = URL.createObjectURL(new Blob([file.text], { type: `${file.mimeType};charset=utf-8` }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}
