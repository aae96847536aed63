// Names of URL groups, queues and schedule ids: letters, digits, `-`, `_` and `.` (the real service's rule).

const NAME = /^[A-Za-z0-9._-]+$/;
const MAX_NAME = 200;

/** Returns undefined when the name is fine, else a sentence saying what is wrong. */
export function checkName(kind: 'URL group' | 'queue' | 'schedule id', name: string): string | undefined {
  const what = kind === 'schedule id' ? kind : `${kind} name`;
  if (name === '') return `${what} is empty`;
  if (name.length > MAX_NAME) return `${what} is longer than ${MAX_NAME} characters`;
  if (!NAME.test(name)) {
    return `invalid ${what} '${name}': use only letters, digits, '-', '_' and '.'`;
  }
  // `.` and `..` are path segments every HTTP client normalises away: such a group could not be reached.
  if (/^\.+$/.test(name)) return `invalid ${what} '${name}': it needs a letter, digit, '-' or '_'`;
  return undefined;
}

/** `Upstash-Label: a,b` → ['a', 'b'] (trimmed, empties dropped, duplicates removed). */
export function parseLabels(value: string): string[] {
  const labels: string[] = [];
  for (const part of value.split(',')) {
    const label = part.trim();
    if (label && !labels.includes(label)) labels.push(label);
  }
  return labels;
}
