// Public surface of domain/format (filled in by its issue).
export {};
