/**
 * The Electron security checklist as plain functions, so tests run them in Node without an
 * Electron binary. main.ts wires them to the real events.
 */

export interface WindowOptions {
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
  show: boolean;
  backgroundColor: string;
  title: string;
  autoHideMenuBar: boolean;
  webPreferences: {
    preload: string;
    contextIsolation: true;
    sandbox: true;
    nodeIntegration: false;
    nodeIntegrationInWorker: false;
    nodeIntegrationInSubFrames: false;
    webSecurity: true;
    allowRunningInsecureContent: false;
    webviewTag: false;
    spellcheck: false;
    navigateOnDragDrop: false;
    safeDialogs: true;
  };
}

export function createWindowOptions(preloadPath: string): WindowOptions {
  return {
    width: 1280,
    height: 800,
    minWidth: 1024,
    minHeight: 700,
    show: false,
    backgroundColor: '#f4f6f8',
    title: 'Pharmacy till',
    autoHideMenuBar: true,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
    },
  };
}

function originOf(url: string | undefined | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

/** The window may only ever show the till's own pages (a reload or an in-app link). */
export function isAllowedNavigation(url: string, appOrigin: string): boolean {
  return originOf(url) === appOrigin;
}

/** Sites the till may open in the OS browser: https only, exact host or a subdomain of it. */
export const DEFAULT_EXTERNAL_HOSTS: readonly string[] = [];

export function isAllowedExternalUrl(url: string, allowedHosts: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' || parsed.username || parsed.password) return false;
  const host = parsed.hostname.toLowerCase();
  return allowedHosts.some((h) => host === h || host.endsWith(`.${h}`));
}

/**
 * Only the till's top frame at the app's origin may call the main process: not an iframe, not a
 * page that was somehow navigated elsewhere.
 */
export function validateIpcSender(
  sender: { url: string | undefined; isMainFrame: boolean } | null | undefined,
  appOrigin: string,
): boolean {
  return !!sender && sender.isMainFrame && originOf(sender.url) === appOrigin;
}

/**
 * The window's Content-Security-Policy, added to the server's own (helmet) for the app's
 * responses: both apply, so the stricter wins. No inline script, no eval, no remote anything.
 */
export function contentSecurityPolicy(): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-src 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Response headers with the CSP added when the response is the app's own. */
export function withContentSecurityPolicy(
  url: string,
  headers: Record<string, string[]> | undefined,
  appOrigin: string,
): Record<string, string[]> {
  const next = { ...(headers ?? {}) };
  if (originOf(url) === appOrigin) next['Content-Security-Policy'] = [contentSecurityPolicy()];
  return next;
}
