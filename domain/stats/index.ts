// Public surface of domain/stats (filled in by its issue).
export {};
