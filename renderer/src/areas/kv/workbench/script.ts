// Turning what the user typed into commands: a script is one command per line (blank lines and `#`
// comments skipped), each line split the way redis-cli does. Used by the command line, the pipeline
// editor's rows and its "paste a list" box.
import { tokenizeCommandLine } from '../../../../../shared/kv/command-line';

export type ScriptParse =
  { ok: true; commands: string[][]; lines: string[] } | { ok: false; error: string; line: number };

export function parseScript(text: string): ScriptParse {
  const commands: string[][] = [];
  const lines: string[] = [];
  const all = text.split(/\r?\n/);
  for (let i = 0; i < all.length; i += 1) {
    const line = all[i]!.trim();
    if (!line || line.startsWith('#')) continue;
    const parsed = tokenizeCommandLine(line);
    if (!parsed.ok) return { ok: false, error: `line ${i + 1}: ${parsed.error}`, line: i + 1 };
    if (parsed.args.length === 0) continue;
    commands.push(parsed.args);
    lines.push(line);
  }
  return { ok: true, commands, lines };
}

/** The word being typed at `caret` when it is a command name (the first word of its line). */
export function commandWordAt(text: string, caret: number): { word: string; start: number } | undefined {
  const lineStart = text.lastIndexOf('\n', caret - 1) + 1;
  const before = text.slice(lineStart, caret);
  const match = /^\s*(\S*)$/.exec(before);
  if (!match) return undefined;
  return { word: match[1]!, start: caret - match[1]!.length };
}

/** The command name of the line the caret is on (for the inline docs). */
export function commandNameAt(text: string, caret: number): string | undefined {
  const lineStart = text.lastIndexOf('\n', caret - 1) + 1;
  const lineEnd = text.indexOf('\n', caret);
  const line = text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd);
  return /^\s*(\S+)/.exec(line)?.[1];
}
