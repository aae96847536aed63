// URL checks shared by the bridge's input schemas and the renderer's forms.

/** True for an absolute http:// or https:// URL with a host. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
