// The current time for checks such as "this earliest-delivery time is in the past", refreshed now and
// then so a long-open form stays right without making rendering impure.
import { useEffect, useState } from 'react';

export function useNow(everyMs = 15_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
