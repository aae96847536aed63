// The Node versions Switchyard needs, checked first by every entry point so that an old Node gets one clear
// sentence instead of a syntax or API error further in. The browser host and the local stack need what
// package.json's `engines` says; the desktop app's tooling needs what Electron 45 itself declares (its
// package.json: node >= 22.12.0 — npm warns and its install may fail below that).

/** The browser host (`npm run web`, `npm start` without Electron) and the stack process (`npm run stack`). */
export const BROWSER_HOST_NODE = '20.19.0';
/** The desktop app (`npm start`/`npm run dev` with Electron): Electron 45's own requirement. */
export const DESKTOP_NODE = '22.12.0';

function parts(version) {
  return version
    .replace(/^v/, '')
    .split('.')
    .slice(0, 3)
    .map((part) => Number.parseInt(part, 10) || 0);
}

/** True when `version` is at least `required` (both `major.minor.patch`, an optional leading `v`). */
export function atLeast(version, required) {
  const have = parts(version);
  const want = parts(required);
  for (let i = 0; i < 3; i++) {
    if ((have[i] ?? 0) !== (want[i] ?? 0)) return (have[i] ?? 0) > (want[i] ?? 0);
  }
  return true;
}

/** The sentence to print when this Node is too old for `what`, or null when it is new enough. */
export function nodeVersionProblem(what, required, current = process.versions.node) {
  if (atLeast(current, required)) return null;
  const major = required.split('.')[0];
  return (
    `Switchyard's ${what} needs Node ${required} or newer; this is Node ${current}. ` +
    `Install Node ${major} or newer (e.g. \`nvm install ${major}\`) and run it again.`
  );
}
