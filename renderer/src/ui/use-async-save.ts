// Runs a form's async save and keeps what the form shows about it: busy while it runs, and the last
// failure's text. A save that fails leaves the form open for another try.
import { useState } from 'react';
import { errorMessage } from '../bridge/client';

export function useAsyncSave<A extends unknown[]>(
  save: (...args: A) => Promise<void>,
): { busy: boolean; error: string | undefined; run: (...args: A) => Promise<void> } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const run = async (...args: A) => {
    setBusy(true);
    try {
      await save(...args);
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}
