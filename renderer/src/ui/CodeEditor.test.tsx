import { render, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import CodeEditor from './CodeEditor';

describe('CodeEditor', () => {
  it('leaves Ctrl+Enter to the page: no newline is inserted, the page still gets the key', async () => {
    const onChange = vi.fn();
    const pageKeys: string[] = [];
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Enter' && event.ctrlKey) pageKeys.push('send');
    };
    window.addEventListener('keydown', onKey);
    const { container } = render(<CodeEditor value={'{"a":1}'} onChange={onChange} json ariaLabel="Body" />);
    const content = await waitFor(() => container.querySelector('.cm-content') as HTMLElement);
    content.focus();
    content.dispatchEvent(
      new KeyboardEvent('keydown', {
        key: 'Enter',
        code: 'Enter',
        keyCode: 13,
        ctrlKey: true,
        bubbles: true,
      }),
    );
    window.removeEventListener('keydown', onKey);
    expect(pageKeys).toEqual(['send']);
    expect(onChange).not.toHaveBeenCalled();
    expect(content.textContent).toBe('{"a":1}');
  });
});
