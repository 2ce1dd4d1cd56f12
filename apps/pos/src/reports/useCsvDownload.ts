import { useCallback, useState } from 'react';
import { currentToken } from '../token-store';
import { csvFileName } from './csv';

export type DownloadState =
  | { phase: 'idle' }
  | { phase: 'running'; received: number; total: number | null }
  | { phase: 'done'; fileName: string; rows: number }
  | { phase: 'failed'; message: string };

/** Reads a response body to the end, reporting bytes received (and the total when the server sent it). */
async function readWithProgress(res: Response, onProgress: (received: number) => void): Promise<Blob> {
  if (!res.body) return res.blob();
  const reader = res.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value as Uint8Array<ArrayBuffer>);
    received += value.byteLength;
    onProgress(received);
  }
  return new Blob(chunks, { type: res.headers.get('content-type') ?? 'text/csv' });
}

/** Hands a Blob to the browser as a download of `fileName`. */
function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

async function problemOf(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { detail?: string };
    return body.detail ?? `${res.status} ${res.statusText}`;
  } catch {
    return `${res.status} ${res.statusText}`;
  }
}

/**
 * Downloads a CSV section: an authenticated fetch (the bearer token cannot ride on a plain link), the
 * body read in chunks so a long export shows its progress, then a Blob saved under the server's name.
 */
export function useCsvDownload() {
  const [state, setState] = useState<DownloadState>({ phase: 'idle' });
  const start = useCallback(async (url: string, name: (serverName: string) => string) => {
    setState({ phase: 'running', received: 0, total: null });
    try {
      const token = currentToken();
      const res = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
      if (!res.ok) throw new Error(await problemOf(res));
      const length = Number(res.headers.get('content-length'));
      const total = Number.isFinite(length) && length > 0 ? length : null;
      const blob = await readWithProgress(res, (received) => setState({ phase: 'running', received, total }));
      const fileName = name(csvFileName(res.headers.get('content-disposition'), 'report.csv'));
      saveBlob(blob, fileName);
      const lines = (await blob.text()).split(/\r\n/).filter(Boolean).length;
      setState({ phase: 'done', fileName, rows: Math.max(0, lines - 1) });
    } catch (err) {
      setState({ phase: 'failed', message: err instanceof Error ? err.message : 'The download failed.' });
    }
  }, []);
  return { state, start };
}
