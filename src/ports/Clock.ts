/** Time as the tools see it: the current instant and the user's time zone (settable in tests). */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** IANA time zone name, e.g. "Europe/Berlin". */
  timeZone(): string;
}

/** The system clock, in the configured time zone or else the system's. */
export function systemClock(configuredTimeZone = ""): Clock {
  return {
    now: () => Date.now(),
    timeZone: () => configuredTimeZone || Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC",
  };
}

