// Public surface of domain/runner (filled in by its issue).
export {};
