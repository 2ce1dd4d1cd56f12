import { useEffect, useRef } from 'react';
import { currentToken } from '../token-store';
import { parseServerSentEvents } from './server-sent-events';

const RECONNECT_MS = 3_000;

/**
 * Scans from the till's serial scanners: the till server reads them (SCANNER_PORTS) and streams each code on
 * /api/v1/scanners/events; they reach `onScan` exactly like keyboard-wedge scans. Reconnects after errors.
 */
export function useSerialScanner(
  onScan: (code: string, startedAt: number) => void,
  options: { enabled?: boolean } = {},
) {
  const handler = useRef(onScan);
  handler.current = onScan;
  const enabled = useRef(options.enabled ?? true);
  enabled.current = options.enabled ?? true;

  useEffect(() => {
    const controller = new AbortController();
    let timer: number | undefined;
    const connect = async () => {
      try {
        const token = currentToken();
        if (!token) throw new Error('not signed in');
        const res = await fetch('/api/v1/scanners/events', {
          headers: { authorization: `Bearer ${token}` },
          signal: controller.signal,
        });
        if (!res.ok || !res.body) throw new Error(`scanner events: ${res.status}`);
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          const { events, rest } = parseServerSentEvents(buffer + value);
          buffer = rest;
          for (const event of events) {
            if (event.event !== 'scan' || !enabled.current) continue;
            const { code } = JSON.parse(event.data) as { code: string };
            handler.current(code, performance.now());
          }
        }
      } catch {
        // reconnect below, unless the screen went away
      }
      if (!controller.signal.aborted) timer = window.setTimeout(connect, RECONNECT_MS);
    };
    void connect();
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, []);
}
