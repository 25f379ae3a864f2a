// Public surface of domain/scoring (filled in by its issue).
export {};
