/** The app icon's files (see icons.mjs). */
export const SOURCE: string;
export const PNG_DIR: string;
export const SIZES: number[];
export const ICNS_TYPES: Record<number, string>;
export const ICO_SIZES: number[];
export function pngPath(size: number, dir?: string): string;
export function pngSize(png: Buffer): { width: number; height: number };
export function icns(pngs: (size: number) => Buffer): Buffer;
export function ico(pngs: (size: number) => Buffer): Buffer;
export function writeBundles(outDir: string, pngDir?: string): void;
