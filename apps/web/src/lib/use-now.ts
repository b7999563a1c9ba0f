"use client";

import { useEffect, useState } from "react";

/** The current time in ms, re-rendering every `everyMs` while `isTicking`. */
export function useNow(everyMs: number, isTicking: boolean): number {
  const [nowMs, setNowMs] = useState(() => Date.now());
  useEffect(() => {
    if (!isTicking) return;
    setNowMs(Date.now());
    const timer = setInterval(() => setNowMs(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs, isTicking]);
  return nowMs;
}
