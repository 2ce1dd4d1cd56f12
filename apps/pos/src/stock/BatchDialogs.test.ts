// @vitest-environment happy-dom
import type { Batch } from '@pharmacy/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BatchActionDialog } from './BatchDialogs';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const batch = {
  id: 'b1',
  medicine_name: 'Amoxil',
  batch_number: 'LOT-A1',
  qty_on_hand: 17,
  expiry_date: '2027-12-31',
} as Batch;

let container: HTMLDivElement;
let root: Root;
beforeEach(() => {
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true;
  };
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
  vi.unstubAllGlobals();
});

const field = (label: string) => {
  const l = [...container.querySelectorAll('label')].find((x) => x.textContent === label)!;
  return container.querySelector<HTMLInputElement>(`#${CSS.escape(l.htmlFor)}`)!;
};
const type = (input: HTMLInputElement, value: string) => {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  setter.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
};

describe('write-off form', () => {
  it('refuses a quantity that is no whole number, then shows the server message beside the reason, keeping what was typed', async () => {
    const fetchMock = vi.fn(async () =>
      Response.json(
        {
          status: 400,
          code: 'VALIDATION',
          detail: 'reason: must not be empty.',
          errors: [{ path: 'reason', message: 'must not be empty' }],
        },
        { status: 400, headers: { 'content-type': 'application/problem+json' } },
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    const client = new QueryClient();
    await act(async () =>
      root.render(
        createElement(
          QueryClientProvider,
          { client },
          createElement(BatchActionDialog, { batch, action: 'write-off', onClose: () => {} }),
        ),
      ),
    );
    const qty = field('Quantity to write off');
    expect(qty.value).toBe('17');
    await act(async () => type(qty, '2.5'));
    await act(async () => container.querySelector('form')!.requestSubmit());
    expect(qty.getAttribute('aria-invalid')).toBe('true');
    expect(container.textContent).toContain('must be a whole number');
    expect(fetchMock).not.toHaveBeenCalled();

    await act(async () => type(qty, '3'));
    await act(async () => container.querySelector('form')!.requestSubmit());
    await vi.waitFor(() => expect(field('Reason').getAttribute('aria-invalid')).toBe('true'));
    expect(fetchMock).toHaveBeenCalledOnce();
    const describedBy = field('Reason').getAttribute('aria-describedby')!;
    expect(container.querySelector(`#${CSS.escape(describedBy)}`)!.textContent).toBe('must not be empty');
    expect(field('Quantity to write off').value).toBe('3');
  });
});
