// SecretDelivery never sends a path: in the desktop app it asks main to open a save dialog, in the browser
// host it sends a plain file name (or none) and shows the folder and the path main chose. The bridge here
// is an in-memory transport answering as main would for each host.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AppInfo, CopyResult, FileSaving } from '../../../shared/bridge/procedures/app';
import { BridgeClient } from '../bridge/client';
import { BridgeProvider } from '../bridge/react';
import type { Transport } from '../bridge/transport';
import { SecretDelivery } from './SecretDelivery';

function renderWith(fileSaving: FileSaving, result: CopyResult | null = null) {
  const info: Partial<AppInfo> = { host: fileSaving.kind === 'dialog' ? 'electron' : 'browser', fileSaving };
  const transport: Transport = {
    call: (name) =>
      Promise.resolve(
        name === 'app.info'
          ? { ok: true, value: info }
          : name === 'app.clipboardStatus'
            ? { ok: true, value: { available: false, problem: 'No clipboard here.' } }
            : { ok: false, error: { code: 'INTERNAL', message: `unexpected ${name}` } },
      ),
    open: () => () => {},
    job: () => {
      throw new Error('no jobs here');
    },
    onConnection: () => () => {},
  };
  const onSend = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <BridgeProvider client={new BridgeClient(transport)}>
        <SecretDelivery
          label="Copy URL"
          what="the URL"
          fileName="switchyard-intake-url.txt"
          onSend={onSend}
          result={result}
        />
      </BridgeProvider>
    </QueryClientProvider>,
  );
  return onSend;
}

describe('SecretDelivery', () => {
  it('browser host: a file name only, the exports folder shown, and a path is refused in the field', async () => {
    const onSend = renderWith({
      kind: 'folder',
      folder: '/home/ann/.local/share/switchyard/console/exports',
    });
    expect(await screen.findByTestId('exports-folder')).toHaveProperty(
      'textContent',
      '/home/ann/.local/share/switchyard/console/exports',
    );
    const button = screen.getByRole('button', { name: 'Write file' });
    fireEvent.click(button);
    expect(onSend).toHaveBeenLastCalledWith({ kind: 'file', suggestedName: 'switchyard-intake-url.txt' });

    fireEvent.change(screen.getByLabelText('File name'), { target: { value: '../../out/renderer/x.txt' } });
    expect(screen.getByText('A file name only, without folders (no / or \\).')).toBeTruthy();
    expect(button).toHaveProperty('disabled', true);
  });

  it('desktop app: "Save as…" asks main for its save dialog, with no name and no path', async () => {
    const onSend = renderWith({ kind: 'dialog' });
    const button = await screen.findByRole('button', { name: 'Save as…' });
    expect(screen.queryByLabelText('File name')).toBeNull();
    fireEvent.click(button);
    expect(onSend).toHaveBeenLastCalledWith({ kind: 'file' });
    expect(screen.getByTestId('secret-delivery-method').textContent).toContain(
      'You choose the file in a save dialog',
    );
  });

  it('shows the path main chose, or that the dialog was closed', async () => {
    renderWith({ kind: 'dialog' }, { to: 'file', masked: 'x', path: '/home/ann/Downloads/hook.txt' });
    expect((await screen.findByTestId('written-path')).textContent).toBe('/home/ann/Downloads/hook.txt');
  });

  it('says nothing was saved when the user closed the dialog', async () => {
    renderWith({ kind: 'dialog' }, { to: 'file', canceled: true });
    expect(await screen.findByText('The save dialog was closed without choosing a file.')).toBeTruthy();
  });
});
