import { useEffect, useState } from 'react';

/** Index that advances every `intervalMs` through `length` items while not paused. */
export function useRotation(length: number, intervalMs: number, paused = false) {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    if (paused || length <= 1) return;
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % length), intervalMs);
    return () => window.clearInterval(timer);
  }, [length, intervalMs, paused, index]);
  return [index, setIndex] as const;
}
