import { describe, expect, it } from 'vitest';
import { IPC } from './ipc';
import {
  contentSecurityPolicy,
  createWindowOptions,
  isAllowedExternalUrl,
  isAllowedNavigation,
  validateIpcSender,
  withContentSecurityPolicy,
} from './security';

const ORIGIN = 'http://127.0.0.1:47810';

describe('createWindowOptions', () => {
  it('isolates the renderer', () => {
    const { webPreferences } = createWindowOptions('/app/preload.cjs');
    expect(webPreferences).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
      allowRunningInsecureContent: false,
    });
  });
});

describe('isAllowedNavigation', () => {
  it('allows the till origin only', () => {
    expect(isAllowedNavigation(`${ORIGIN}/back-office/users`, ORIGIN)).toBe(true);
    expect(isAllowedNavigation('http://127.0.0.1:47811/', ORIGIN)).toBe(false);
    expect(isAllowedNavigation('http://localhost:47810/', ORIGIN)).toBe(false);
    expect(isAllowedNavigation('https://evil.example/', ORIGIN)).toBe(false);
    expect(isAllowedNavigation('file:///etc/passwd', ORIGIN)).toBe(false);
    expect(isAllowedNavigation('javascript:alert(1)', ORIGIN)).toBe(false);
    expect(isAllowedNavigation('not a url', ORIGIN)).toBe(false);
    expect(isAllowedNavigation(`http://user@127.0.0.1:47810.evil.example/`, ORIGIN)).toBe(false);
  });
});

describe('isAllowedExternalUrl', () => {
  const hosts = ['pharmacy.example'];
  it('opens https links to allowed hosts and their subdomains', () => {
    expect(isAllowedExternalUrl('https://pharmacy.example/help', hosts)).toBe(true);
    expect(isAllowedExternalUrl('https://docs.pharmacy.example/a', hosts)).toBe(true);
  });
  it('refuses everything else', () => {
    expect(isAllowedExternalUrl('http://pharmacy.example/', hosts)).toBe(false);
    expect(isAllowedExternalUrl('https://evilpharmacy.example/', hosts)).toBe(false);
    expect(isAllowedExternalUrl('https://pharmacy.example.evil.example/', hosts)).toBe(false);
    expect(isAllowedExternalUrl('https://user:pw@pharmacy.example/', hosts)).toBe(false);
    expect(isAllowedExternalUrl('file:///C:/Windows/system32/calc.exe', hosts)).toBe(false);
    expect(isAllowedExternalUrl('https://anything.example/', [])).toBe(false);
  });
});

describe('validateIpcSender', () => {
  it('accepts the top frame of the till origin', () => {
    expect(validateIpcSender({ url: `${ORIGIN}/sell`, isMainFrame: true }, ORIGIN)).toBe(true);
  });
  it('refuses sub-frames, other origins and missing frames', () => {
    expect(validateIpcSender({ url: `${ORIGIN}/sell`, isMainFrame: false }, ORIGIN)).toBe(false);
    expect(validateIpcSender({ url: 'https://evil.example/', isMainFrame: true }, ORIGIN)).toBe(false);
    expect(validateIpcSender({ url: undefined, isMainFrame: true }, ORIGIN)).toBe(false);
    expect(validateIpcSender(null, ORIGIN)).toBe(false);
  });
});

describe('content security policy', () => {
  it('allows nothing inline or remote', () => {
    const csp = contentSecurityPolicy();
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/unsafe-(inline|eval)/);
  });
  it('is added to the app responses only', () => {
    const own = withContentSecurityPolicy(`${ORIGIN}/`, { 'Content-Type': ['text/html'] }, ORIGIN);
    expect(own['Content-Security-Policy']).toEqual([contentSecurityPolicy()]);
    expect(own['Content-Type']).toEqual(['text/html']);
    expect(withContentSecurityPolicy('https://other.example/', {}, ORIGIN)['Content-Security-Policy']).toBe(
      undefined,
    );
  });
});

describe('IPC channels', () => {
  it('are unique and namespaced', () => {
    const channels = Object.values(IPC);
    expect(new Set(channels).size).toBe(channels.length);
    for (const c of channels) expect(c).toMatch(/^till:/);
  });
});
