// Public surface of domain/replay (filled in by its issue).
export {};
