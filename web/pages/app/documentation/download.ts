import { saveBlob } from '../../../components/saveFile';
import { refreshTokens } from '../../../api/client';
import { getAuth } from '../../../api/session';

/** 'notes.md' for a document named 'notes' or 'notes.md' in Markdown. */
export function fileNameOf(d: { name: string; format: string }): string {
  return d.name.toLowerCase().endsWith(`.${d.format}`) ? d.name : `${d.name}.${d.format}`;
}

/**
 * Downloads a document's raw file. The endpoint needs the bearer token, so the browser cannot
 * follow a plain link: fetch it (one refresh and retry on 401, like the API client) and save it.
 */
export async function downloadDocument(id: string, fallbackName: string): Promise<void> {
  const path = `/api/documents/${encodeURIComponent(id)}/download`;
  const get = () => {
    const auth = getAuth();
    return fetch(path, { headers: auth ? { Authorization: `Bearer ${auth.accessToken}` } : {} });
  };
  let res = await get();
  if (res.status === 401 && (await refreshTokens())) res = await get();
  if (!res.ok) throw new Error(`Download failed: HTTP error! status: ${res.status}`);
  const blob = await res.blob();
  const disposition = res.headers.get('content-disposition') ?? '';
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  const name = match?.[1] ? decodeURIComponent(match[1]) : fallbackName;
  saveBlob(blob, name);
}
