import { describe, expect, it } from 'vitest';
import { parseServerSentEvents } from './server-sent-events';

describe('parseServerSentEvents', () => {
  it('returns complete events, skips comments and keeps a partial event for the next chunk', () => {
    const first = parseServerSentEvents(
      ': keep-alive\n\nevent: scan\ndata: {"code":"1"}\n\nevent: scan\ndata: {"co',
    );
    expect(first.events).toEqual([{ event: 'scan', data: '{"code":"1"}' }]);
    const second = parseServerSentEvents(`${first.rest}de":"2"}\n\n`);
    expect(second.events).toEqual([{ event: 'scan', data: '{"code":"2"}' }]);
    expect(second.rest).toBe('');
  });

  it('joins multi-line data and accepts CRLF', () => {
    expect(parseServerSentEvents('data: a\r\ndata: b\r\n\r\n').events).toEqual([
      { event: 'message', data: 'a\nb' },
    ]);
  });
});
