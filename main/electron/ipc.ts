// Connects each window's renderer to the bridge over IPC: one BridgeSession per webContents, every
// message's sender frame checked, streams and jobs stopped when the window goes away.
import { ipcMain, type IpcMainEvent, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { IPC_CALL, IPC_CLOSE, IPC_OPEN, IPC_START, IPC_STREAM } from '../../shared/bridge/channels';
import type { CallResult } from '../../shared/bridge/frames';
import type { Router } from '../core/bridge/router';
import { BridgeSession } from '../core/bridge/session';
import type { Logger } from '../core/logger';
import { isTrustedSender } from './security';

export function registerBridgeIpc(router: Router, logger: Logger, devServerUrl?: string): void {
  const sessions = new Map<number, BridgeSession>();

  function sessionFor(contents: WebContents): BridgeSession {
    let session = sessions.get(contents.id);
    if (!session) {
      session = new BridgeSession(router, (frame) => {
        if (!contents.isDestroyed()) contents.send(IPC_STREAM, frame);
      });
      sessions.set(contents.id, session);
      contents.once('destroyed', () => {
        sessions.get(contents.id)?.dispose();
        sessions.delete(contents.id);
      });
      // A reload gets a fresh renderer: its predecessor's streams must not keep running.
      contents.on('did-start-navigation', (details) => {
        if (details.isMainFrame && !details.isSameDocument) {
          sessions.get(contents.id)?.dispose();
          sessions.delete(contents.id);
        }
      });
    }
    return session;
  }

  function trusted(event: IpcMainEvent | IpcMainInvokeEvent): boolean {
    const frame = event.senderFrame;
    const ok = frame !== null && isTrustedSender(frame.url, frame === event.sender.mainFrame, devServerUrl);
    if (!ok) logger.warn({ url: frame?.url }, 'IPC from an untrusted frame refused');
    return ok;
  }

  // `id` (the preload's, from the same counter as streams) lets IPC_CLOSE stop a call nobody waits for.
  ipcMain.handle(IPC_CALL, async (event, name: unknown, input: unknown, id: unknown): Promise<CallResult> => {
    if (!trusted(event))
      return { ok: false, error: { code: 'INTERNAL', message: 'Refused: untrusted sender.' } };
    const callId = Number.isSafeInteger(id) ? (id as number) : undefined;
    const result = await sessionFor(event.sender).call(String(name), input, callId);
    return result ?? { ok: false, error: { code: 'CANCELLED', message: 'Stopped waiting for an answer.' } };
  });
  ipcMain.on(IPC_OPEN, (event, id: unknown, name: unknown, input: unknown) => {
    if (!trusted(event) || !Number.isSafeInteger(id)) return;
    void sessionFor(event.sender).open(id as number, String(name), input);
  });
  ipcMain.on(IPC_START, (event, id: unknown, options: unknown, confirmed: unknown) => {
    if (!trusted(event) || !Number.isSafeInteger(id) || !Number.isSafeInteger(confirmed)) return;
    sessions.get(event.sender.id)?.start(id as number, options, confirmed as number);
  });
  ipcMain.on(IPC_CLOSE, (event, id: unknown) => {
    if (!trusted(event) || !Number.isSafeInteger(id)) return;
    sessions.get(event.sender.id)?.close(id as number);
  });
}
