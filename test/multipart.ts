/**
 * multipart/form-data bodies for inject(): text fields and file parts, written out by hand so
 * tests can also send the malformed ones a hostile client would (a cut body, no boundary).
 */

export const BOUNDARY = '----econagents-test-boundary';

export interface FilePart {
  name: string;
  content: string | Uint8Array;
  /** The part's field name (default "file"). */
  field?: string;
  type?: string;
}

export function multipartBody(fields: Record<string, string>, files: FilePart[] = []): Buffer {
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    );
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; ` +
          `filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      Buffer.from(file.content),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

export const MULTIPART_HEADERS = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
