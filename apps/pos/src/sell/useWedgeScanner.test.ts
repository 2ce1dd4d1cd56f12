// @vitest-environment happy-dom
import { act, createElement, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useWedgeScanner } from './useWedgeScanner';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let clock = 0;
let scans: string[] = [];
let submits = 0;
let container: HTMLDivElement;
let root: Root;

/** A search field in a form, as the selling screen will have, with the scanner hook mounted. */
function Harness({ enabled = true }: { enabled?: boolean }) {
  const [text, setText] = useState('');
  useWedgeScanner((code) => scans.push(code), { enabled, now: () => clock });
  return createElement(
    'form',
    {
      onSubmit: (e: Event) => {
        e.preventDefault();
        submits += 1;
      },
    },
    createElement('input', {
      'aria-label': 'Search',
      value: text,
      onChange: (e: { target: HTMLInputElement }) => setText(e.target.value),
    }),
    createElement('output', null, text),
  );
}

function input(): HTMLInputElement {
  return container.querySelector('input') as HTMLInputElement;
}

/** Types keys into the focused field the way a browser does: keydown, then the character lands. */
function press(keys: string[], gapMs: number) {
  for (const key of keys) {
    clock += gapMs;
    act(() => {
      const target = document.activeElement ?? document.body;
      const down = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
      target.dispatchEvent(down);
      if (down.defaultPrevented) return;
      if (key === 'Enter') {
        (target as HTMLInputElement).form?.requestSubmit();
      } else if (key.length === 1 && target instanceof HTMLInputElement) {
        const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
        setter?.call(target, target.value + key);
        target.dispatchEvent(new Event('input', { bubbles: true }));
      }
    });
  }
}

function mount(enabled = true) {
  act(() => root.render(createElement(Harness, { enabled })));
}

beforeEach(() => {
  clock = 1_000;
  scans = [];
  submits = 0;
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

describe('useWedgeScanner', () => {
  it('reports a scan, keeps its Enter from submitting, and takes the code out of the field', () => {
    mount();
    input().focus();
    press([...'para'], 150);
    clock += 2_000;
    press([...'5012345678900', 'Enter'], 6);
    expect(scans).toEqual(['5012345678900']);
    expect(submits).toBe(0);
    expect(input().value).toBe('para');
    expect(container.querySelector('output')?.textContent).toBe('para');
  });

  it('leaves typing and its Enter to the form', () => {
    mount();
    input().focus();
    press([...'paracetamol', 'Enter'], 140);
    expect(scans).toEqual([]);
    expect(submits).toBe(1);
    expect(input().value).toBe('paracetamol');
  });

  it('hears scans when nothing is focused', () => {
    mount();
    (document.activeElement as HTMLElement | null)?.blur();
    press([...'ABC-12345', 'Enter'], 5);
    expect(scans).toEqual(['ABC-12345']);
  });

  it('ignores auto-repeat and stops listening when disabled', () => {
    mount();
    act(() => {
      for (let i = 0; i < 8; i++) {
        clock += 5;
        window.dispatchEvent(new KeyboardEvent('keydown', { key: '1', repeat: true }));
      }
    });
    press(['Enter'], 5);
    expect(scans).toEqual([]);
    mount(false);
    press([...'12345678', 'Enter'], 5);
    expect(scans).toEqual([]);
  });
});
