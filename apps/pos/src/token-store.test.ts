// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { clearToken, loadToken, refreshDelay, saveToken, tokenFromResponse } from './token-store';

describe('token store', () => {
  beforeEach(() => {
    clearToken();
    sessionStorage.clear();
  });

  it('keeps the token across a reload through sessionStorage', () => {
    saveToken(tokenFromResponse({ access_token: 'abc', expires_in: 3600 }, 1_000));
    expect(JSON.parse(sessionStorage.getItem('pharmacy.till.token') ?? '{}')).toMatchObject({ token: 'abc' });
    expect(loadToken(2_000)?.token).toBe('abc');
  });

  it('forgets an expired token', () => {
    saveToken(tokenFromResponse({ access_token: 'abc', expires_in: 60 }, 0));
    expect(loadToken(60_000)).toBeNull();
    expect(sessionStorage.getItem('pharmacy.till.token')).toBeNull();
  });

  it('ignores a damaged entry', () => {
    sessionStorage.setItem('pharmacy.till.token', '{not json');
    expect(loadToken()).toBeNull();
  });

  it('refreshes at 80 % of the life, at least 30 s before expiry', () => {
    const hour = tokenFromResponse({ access_token: 'a', expires_in: 3600 }, 0);
    expect(refreshDelay(hour, 0)).toBe(2_880_000);
    const minute = tokenFromResponse({ access_token: 'a', expires_in: 60 }, 0);
    expect(refreshDelay(minute, 0)).toBe(30_000);
    expect(refreshDelay(minute, 50_000)).toBe(0);
  });
});
