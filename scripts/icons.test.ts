// The app icon's files: the committed PNG set matches its names, the ICNS and ICO containers that
// `npm run dist` packs hold every size intact, and electron-builder (the pinned version, offline) takes
// the files electron-builder.yml names without trying to convert or download anything.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../shared/testing/temp-dir';
import { ICNS_TYPES, ICO_SIZES, PNG_DIR, SIZES, pngPath, pngSize, writeBundles } from './icons.mjs';

const root = join(import.meta.dirname, '..');

describe('app icon', () => {
  const tempDir = useTempDirs();

  it('has a PNG of every size, each as large as its name says', () => {
    for (const size of SIZES) {
      expect(pngSize(readFileSync(pngPath(size))), `${size}x${size}.png`).toEqual({
        width: size,
        height: size,
      });
    }
  });

  it('packs the PNGs into an ICNS file, one element per size', () => {
    const dir = tempDir();
    writeBundles(dir);
    const file = readFileSync(join(dir, 'icon.icns'));
    expect(file.toString('latin1', 0, 4)).toBe('icns');
    expect(file.readUInt32BE(4)).toBe(file.length);
    const found: Record<string, number> = {};
    for (let at = 8; at < file.length;) {
      const type = file.toString('latin1', at, at + 4);
      const length = file.readUInt32BE(at + 4);
      const png = file.subarray(at + 8, at + length);
      found[type] = pngSize(png).width;
      expect(png.equals(readFileSync(pngPath(found[type]!)))).toBe(true);
      at += length;
    }
    expect(found).toEqual(
      Object.fromEntries(Object.entries(ICNS_TYPES).map(([size, type]) => [type, Number(size)])),
    );
  });

  it('packs the PNGs into an ICO file, 256 px written as 0', () => {
    const dir = tempDir();
    writeBundles(dir);
    const file = readFileSync(join(dir, 'icon.ico'));
    expect([file.readUInt16LE(0), file.readUInt16LE(2), file.readUInt16LE(4)]).toEqual([
      0,
      1,
      ICO_SIZES.length,
    ]);
    ICO_SIZES.forEach((size, index) => {
      const entry = 6 + 16 * index;
      expect(file.readUInt8(entry) || 256).toBe(size);
      const png = file.subarray(
        file.readUInt32LE(entry + 12),
        file.readUInt32LE(entry + 12) + file.readUInt32LE(entry + 8),
      );
      expect(pngSize(png)).toEqual({ width: size, height: size });
    });
  });

  it('is what electron-builder.yml names, and electron-builder takes it as it is', async () => {
    const config = readFileSync(join(root, 'electron-builder.yml'), 'utf8');
    const icons = [...config.matchAll(/^\s+icon: (\S+)$/gm)].map((match) => match[1]);
    expect(icons).toEqual(['assets/icons', 'out/icons/icon.icns', 'out/icons/icon.ico']);
    expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.dist).toContain(
      'node scripts/icons.mjs bundles && electron-builder',
    );

    const dir = tempDir();
    writeBundles(join(dir, 'out', 'icons'));
    // electron-builder's own resolver: a file that already has the target format is used as it is
    // (checked for size); anything else would go to a converter it downloads.
    const { convertIcon } = (await import('app-builder-lib/out/util/iconConverter.js')) as {
      convertIcon(options: object): Promise<{ icons: { file: string; size: number }[]; isFallback: boolean }>;
    };
    const resolve = (source: string, format: string) =>
      convertIcon({
        sources: [source],
        fallbackSources: [],
        roots: [join(root, 'assets'), dir, root],
        format,
        outDir: join(dir, 'converted'),
      });
    const linux = await resolve('assets/icons', 'set');
    expect(linux.icons.map((icon) => icon.size)).toEqual(SIZES);
    expect(linux.icons[0]!.file).toBe(pngPath(16, PNG_DIR));
    const mac = await resolve('out/icons/icon.icns', 'icns');
    expect(mac.icons).toEqual([{ file: join(dir, 'out', 'icons', 'icon.icns'), size: 0 }]);
    const windows = await resolve('out/icons/icon.ico', 'ico');
    expect(windows.icons).toEqual([{ file: join(dir, 'out', 'icons', 'icon.ico'), size: 256 }]);
  });
});
