// Icons are SVG that ships with the app, never a Unicode symbol whose look depends on the installed fonts:
// Debian's Chromium drew the Wait step's ⏸ as an empty box (issue 19 item 8). This scan holds every
// renderer source to it: no technical symbols, shapes, dingbats or emoji outside comments. Text arrows
// (→) and punctuation (“ ” … ·) are fine: every font the console uses has them.
import { describe, expect, it } from 'vitest';

// Misc technical (⏸ ⏎), enclosed alphanumerics to dingbats (● ▶ ▸ ☾ ✉ ✓), misc symbols and arrows-B
// (⬆ ⭐), emoji and the emoji presentation selector.
const FONT_DEPENDENT = /[\u2300-\u23ff\u2460-\u27bf\u2900-\u2bff]|\ufe0f|[\u{1f000}-\u{1faff}]/u;
/** ⌘ is shown only on a Mac (the shortcut hint's modifier), whose system fonts have it. */
const ALLOWED = new Set(['⌘']);

// Every renderer source and style sheet as text, through Vite (the renderer has no Node access, tests included).
const SOURCES = import.meta.glob<string>(['./**/*.{ts,tsx,css}', '!./**/*.test.{ts,tsx}'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** The text without comments (block comments, and line comments not inside a URL). */
function withoutComments(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (block) => block.replace(/[^\n]/g, ''))
    .replace(/(^|[^:])\/\/.*$/gm, '$1');
}

describe('renderer sources', () => {
  it('draw no icon with a font-dependent glyph', () => {
    expect(Object.keys(SOURCES)).toContain('./areas/workflows/run/StepsView.tsx');
    const found: string[] = [];
    for (const [file, text] of Object.entries(SOURCES)) {
      withoutComments(text)
        .split('\n')
        .forEach((line, index) => {
          for (const char of line) {
            if (FONT_DEPENDENT.test(char) && !ALLOWED.has(char))
              found.push(
                `${file}:${index + 1}: ${char} (U+${char.codePointAt(0)!.toString(16).toUpperCase()})`,
              );
          }
        });
    }
    expect(found).toEqual([]);
  });

  it('the scan would catch the Wait step’s old glyph', () => {
    expect(FONT_DEPENDENT.test('⏸')).toBe(true);
    expect(FONT_DEPENDENT.test('→')).toBe(false);
  });
});
