// The few web-platform globals shared/ may use: WHATWG URL, the Encoding API and base64. Every host that
// runs shared/ code has them (Node ≥ 20, Chromium, Electron's renderer), so they are not Node or DOM APIs.
// `tsconfig.shared.json` checks shared/ with no lib but ES and no @types: anything global that is not
// declared here (Buffer, process, window, document, fetch…) is a compile error there. The full project's
// tsconfig.json excludes this file, since @types/node and the DOM lib declare the same names in full.
// Add a declaration only for an API that every host has, and only the members shared/ uses.

declare class URL {
  constructor(url: string, base?: string);
  readonly hostname: string;
  readonly origin: string;
  readonly protocol: string;
}

declare class URLSearchParams {
  constructor(init?: string);
  append(name: string, value: string): void;
  toString(): string;
  [Symbol.iterator](): IterableIterator<[string, string]>;
}

declare class TextEncoder {
  encode(input?: string): Uint8Array;
}

declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean });
  decode(input?: Uint8Array): string;
}

declare function atob(data: string): string;
declare function btoa(data: string): string;
