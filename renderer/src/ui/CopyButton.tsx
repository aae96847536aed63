// Copies text that the renderer may hold (never a token: token-bearing text is copied by main) to the
// clipboard, with a short "Copied" confirmation on the button itself.
import { useState } from 'react';
import { Button, type ButtonProps } from './Button';
import { CheckIcon, CopyIcon } from './icons';
import { toast } from './toast';

/** The async Clipboard API where allowed, else the selection-based fallback. */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // Not permitted here (no user activation, or the page lacks the permission): fall back below.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('The browser refused to copy. Select the text and copy it by hand.');
}

export function CopyButton({
  text,
  label = 'Copy',
  ...rest
}: { text: string | (() => string); label?: string } & Omit<ButtonProps, 'onClick'>) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      {...rest}
      icon={copied ? <CheckIcon /> : <CopyIcon />}
      onClick={async () => {
        try {
          await copyText(typeof text === 'function' ? text() : text);
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        } catch (error) {
          toast.error('Could not copy', error instanceof Error ? error.message : String(error));
        }
      }}
    >
      {copied ? 'Copied' : label}
    </Button>
  );
}
