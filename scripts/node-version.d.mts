/** See node-version.mjs. */
export const BROWSER_HOST_NODE: string;
export const DESKTOP_NODE: string;
export function atLeast(version: string, required: string): boolean;
export function nodeVersionProblem(what: string, required: string, current?: string): string | null;
