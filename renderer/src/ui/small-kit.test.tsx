// The small ui pieces: a busy Button is off, Form submits without navigating, ToolbarSearch.
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Button } from './Button';
import { Form } from './Form';
import { ToolbarSearch } from './ToolbarInput';

describe('Button', () => {
  it('is off while busy, even when told disabled={false}, and takes no click', () => {
    const onClick = vi.fn();
    render(
      <Button busy disabled={false} onClick={onClick}>
        Save
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Save' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(button.getAttribute('aria-busy')).toBe('true');
    fireEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });
});

describe('Form', () => {
  it('calls onSubmit on submit and prevents the browser default', () => {
    const onSubmit = vi.fn();
    render(
      <Form aria-label="Pick" onSubmit={onSubmit}>
        <button type="submit">Go</button>
      </Form>,
    );
    const event = new Event('submit', { bubbles: true, cancelable: true });
    screen.getByRole('form', { name: 'Pick' }).dispatchEvent(event);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(event.defaultPrevented).toBe(true);
  });
});

describe('ToolbarSearch', () => {
  it('is a labelled box with a magnifier unless told not to, reporting text and Enter', () => {
    const onChange = vi.fn();
    const onEnter = vi.fn();
    const { container } = render(
      <>
        <ToolbarSearch label="Match pattern" value="user:*" onChange={onChange} onEnter={onEnter} />
        <ToolbarSearch icon={false} className="wide" label="Open key" value="" onChange={() => {}} />
      </>,
    );
    const box = screen.getByRole('textbox', { name: 'Match pattern' });
    fireEvent.change(box, { target: { value: 'order:*' } });
    expect(onChange).toHaveBeenCalledWith('order:*');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onEnter).toHaveBeenCalledWith('user:*');
    const labels = container.querySelectorAll('label.toolbar-search');
    expect(labels).toHaveLength(2);
    expect(labels[0]!.querySelector('svg')).not.toBeNull();
    expect(labels[1]!.querySelector('svg')).toBeNull();
    expect(labels[1]!.className).toBe('toolbar-search wide');
  });
});
