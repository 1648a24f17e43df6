/**
 * Saves content the page already holds as a file, through a temporary link: exports built in the
 * browser (reports, references, JSON results) and files fetched with the bearer token (which a
 * plain link could not send). The object URL is released once the click has been handled.
 */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Saves text as a file of the given MIME type. */
export function saveText(content: string, fileName: string, type: string): void {
  saveBlob(new Blob([content], { type }), fileName);
}
