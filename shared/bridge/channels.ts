// IPC channel names used by the Electron preload and main. Dependency-free on purpose: the sandboxed
// preload is bundled alone and must stay small.
export const IPC_CALL = 'switchyard:call';
export const IPC_OPEN = 'switchyard:open';
export const IPC_START = 'switchyard:start';
export const IPC_CLOSE = 'switchyard:close';
export const IPC_STREAM = 'switchyard:stream';
