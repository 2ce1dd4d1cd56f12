import type { SyncStatus } from '@pharmacy/contracts';
import { describe, expect, it } from 'vitest';
import { printerText, syncText } from './useHardwareStatus';

const base: SyncStatus = {
  mode: 'till',
  configured: true,
  central_url: 'http://hq:8000',
  device_id: 'd',
  running: true,
  online: true,
  bootstrapped: true,
  last_attempt_at: null,
  last_success_at: null,
  last_push_at: null,
  last_pull_at: null,
  last_error: null,
  pending: 0,
  rejected: 0,
  open_conflicts: 0,
  cursor: 1,
  epoch: 'e',
};

describe('status bar texts', () => {
  it('says how replication stands', () => {
    expect(syncText(undefined)).toBe('Checking…');
    expect(syncText({ ...base, configured: false })).toBe('Not set up');
    expect(syncText({ ...base, pending: 3 })).toBe('Online · 3 pending');
    expect(syncText({ ...base, online: false, pending: 12, open_conflicts: 1 })).toBe(
      'Offline · 12 pending · 1 to review',
    );
    expect(syncText({ ...base, bootstrapped: false })).toBe('Loading from head office · 0 pending');
  });

  it('names the default printer and its state', () => {
    expect(printerText(null)).toBe('Not set up');
    expect(printerText({ name: 'Counter 1', state: 'PAPER_OUT' })).toBe('Counter 1: paper out');
  });
});
