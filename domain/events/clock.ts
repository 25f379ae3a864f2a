// Time and identity are given to the domain, never taken (DESIGN.md: "no clock or randomness it
// was not given"). infra supplies the system clock and UUIDs; tests supply fixed ones.

export interface Clock {
  now(): Date;
}

export interface IdGenerator {
  /** A new unique id (UUID in production); used for event ids. */
  next(): string;
}
