/**
 * Saves `text` as a file the browser downloads (a headless host's `Export…`): a Blob behind a
 * temporary link with `download`, clicked and let go. The address is revoked once the browser
 * had a turn to start the download.
 */
export function downloadText(fileName: string, mimeType: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${mimeType};charset=utf-8` }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
