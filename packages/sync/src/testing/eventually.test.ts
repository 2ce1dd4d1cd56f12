import { describe, expect, it } from 'vitest';
import { eventually } from './eventually';

describe('eventually', () => {
  it('returns the first truthy answer, asking again after falsy ones and thrown errors', async () => {
    let asked = 0;
    const value = await eventually(
      'the third answer',
      async () => {
        asked++;
        if (asked === 1) throw new Error('not up yet');
        return asked === 3 && { asked };
      },
      2_000,
      1,
    );
    expect(value).toEqual({ asked: 3 });
    expect(asked).toBe(3);
  });

  it('takes a synchronous check', async () => {
    let n = 0;
    expect(await eventually('n to pass 2', () => ++n > 2, 2_000, 1)).toBe(true);
  });

  it('times out naming what it waited for and the last error', async () => {
    await expect(
      eventually(
        'the printer',
        () => {
          throw new Error('ECONNREFUSED');
        },
        30,
        5,
      ),
    ).rejects.toThrow(/^timed out after 30 ms waiting for the printer: Error: ECONNREFUSED$/);
  });

  it('reads a description given as a function at the time-out, to show the last thing seen', async () => {
    let seen = 'queued';
    const started = Date.now();
    await expect(
      eventually(
        () => `the job to complete (last seen: ${seen})`,
        () => {
          seen = 'printing';
          return false;
        },
        30,
        5,
      ),
    ).rejects.toThrow('waiting for the job to complete (last seen: printing)');
    expect(Date.now() - started).toBeGreaterThanOrEqual(30);
  });
});
