/** How long the object URL outlives the click: the download has started by then. */
const REVOKE_AFTER_MS = 10_000;

/**
 * Saves a Blob as a file through the browser's download: an object URL and a temporary link.
 * The worker produced the Blob; only this DOM step lives in the UI.
 */
export function downloadFile(file: { fileName: string; blob: Blob }): void {
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}
