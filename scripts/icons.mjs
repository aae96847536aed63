// The app icon's files, all made from one source, assets/icon.svg.
//
//   node scripts/icons.mjs            renders assets/icons/<N>x<N>.png (committed: the Linux icon set and
//                                     the source of the bundles) with rsvg-convert. Run it after
//                                     changing the SVG.
//   node scripts/icons.mjs bundles    packs those PNGs into out/icons/icon.icns (macOS) and
//                                     out/icons/icon.ico (Windows). `npm run dist` runs it; plain Node,
//                                     no tools, because electron-builder would otherwise download its
//                                     icon converter (impossible offline).
//
// Both containers hold PNG images as they are: ICNS by OSType per size, ICO (Vista and later) as PNG
// entries of at most 256 px.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SOURCE = join(root, 'assets', 'icon.svg');
export const PNG_DIR = join(root, 'assets', 'icons');
export const SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
/** ICNS element types that carry a PNG, by pixel size. */
export const ICNS_TYPES = {
  16: 'icp4',
  32: 'icp5',
  64: 'icp6',
  128: 'ic07',
  256: 'ic08',
  512: 'ic09',
  1024: 'ic10',
};
/** Sizes Windows picks from for the taskbar, title bar, Explorer and the installer. */
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];

export const pngPath = (size, dir = PNG_DIR) => join(dir, `${size}x${size}.png`);

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(png) {
  if (png.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

function render(outDir = PNG_DIR) {
  mkdirSync(outDir, { recursive: true });
  for (const size of SIZES) {
    try {
      execFileSync('rsvg-convert', [
        '-w',
        String(size),
        '-h',
        String(size),
        SOURCE,
        '-o',
        pngPath(size, outDir),
      ]);
    } catch (error) {
      if (error.code === 'ENOENT')
        throw new Error('rsvg-convert is missing: apt-get install -y librsvg2-bin (or brew install librsvg)');
      throw error;
    }
  }
}

/** 'icns', total length, then per image: type, length (header included), PNG. */
export function icns(pngs) {
  const elements = Object.entries(ICNS_TYPES).map(([size, type]) => {
    const png = pngs(Number(size));
    const header = Buffer.alloc(8);
    header.write(type, 0, 'latin1');
    header.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([header, png]);
  });
  const header = Buffer.alloc(8);
  header.write('icns', 0, 'latin1');
  header.writeUInt32BE(8 + elements.reduce((sum, element) => sum + element.length, 0), 4);
  return Buffer.concat([header, ...elements]);
}

/** ICONDIR, one 16-byte ICONDIRENTRY per image (256 is written as 0), then the PNGs. */
export function ico(pngs) {
  const images = ICO_SIZES.map((size) => ({ size, png: pngs(size) }));
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // 1 = icon
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, png }, index) => {
    const entry = 6 + 16 * index;
    header.writeUInt8(size % 256, entry);
    header.writeUInt8(size % 256, entry + 1);
    header.writeUInt16LE(1, entry + 4); // colour planes
    header.writeUInt16LE(32, entry + 6); // bits per pixel
    header.writeUInt32LE(png.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...images.map(({ png }) => png)]);
}

export function writeBundles(outDir, pngDir = PNG_DIR) {
  const pngs = (size) => readFileSync(pngPath(size, pngDir));
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'icon.icns'), icns(pngs));
  writeFileSync(join(outDir, 'icon.ico'), ico(pngs));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === 'bundles') writeBundles(join(root, 'out', 'icons'));
  else render();
}
