/** The Electron binary to run, or null when it is not installed (see electron-binary.mjs). */
export function electronBinary(): string | null;
