// A message or response body: decoded from base64 when the service sends it so (the logs do), pretty-printed
// when it is JSON, shown as text when it is UTF-8 and as a hex/base64 note when it is binary.
import { useMemo } from 'react';
import './body-view.css';

const MAX_SHOWN = 64 * 1024;

export interface DecodedBody {
  kind: 'empty' | 'json' | 'text' | 'binary';
  text: string;
  bytes: number;
}

/** Decodes `value` (base64 when `base64` is set) for display. Pure, for tests. */
export function decodeBody(value: string | undefined, base64: boolean): DecodedBody {
  if (value === undefined || value === '') return { kind: 'empty', text: '', bytes: 0 };
  let bytes: Uint8Array;
  if (base64) {
    try {
      const binary = atob(value);
      bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    } catch {
      // Not base64 after all (e.g. a REDACTED:<hash> marker): show it as it came.
      return { kind: 'text', text: value, bytes: value.length };
    }
  } else {
    bytes = new TextEncoder().encode(value);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { kind: 'binary', text: base64 ? value : btoa(value), bytes: bytes.length };
  }
  const trimmed = text.trim();
  if ((trimmed.startsWith('{') || trimmed.startsWith('[')) && trimmed.length < MAX_SHOWN) {
    try {
      return { kind: 'json', text: JSON.stringify(JSON.parse(trimmed), null, 2), bytes: bytes.length };
    } catch {
      // Looks like JSON but is not: plain text.
    }
  }
  return { kind: 'text', text, bytes: bytes.length };
}

/** A body the service sends as text when it is UTF-8 and as base64 otherwise: BodyView's value and flag. */
export function textOrBase64(text: string | undefined, base64: string | undefined) {
  return { value: text ?? base64, base64: text === undefined };
}

export function BodyView({
  value,
  base64 = false,
  label,
}: {
  value?: string;
  base64?: boolean;
  label: string;
}) {
  const body = useMemo(() => decodeBody(value, base64), [value, base64]);
  if (body.kind === 'empty') return <p className="faint">Empty body</p>;
  const shown = body.text.length > MAX_SHOWN ? `${body.text.slice(0, MAX_SHOWN)}\n…` : body.text;
  return (
    <div className="body-view">
      <div className="body-view-meta faint">
        {body.kind === 'json' ? 'JSON' : body.kind === 'binary' ? 'Binary (base64)' : 'Text'} ·{' '}
        {body.bytes.toLocaleString()} bytes
      </div>
      <BodyText label={label}>{shown}</BodyText>
    </div>
  );
}

/**
 * A body's text in a box that scrolls when the body is long: focusable, so the keyboard can scroll it, and a
 * region named `label`, so a screen reader says what it is when it gets the focus.
 */
export function BodyText({ label, children }: { label: string; children: string }) {
  return (
    <pre className="code-block body-view-text" role="region" aria-label={label} tabIndex={0}>
      {children}
    </pre>
  );
}
