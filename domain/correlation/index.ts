// Public surface of domain/correlation (filled in by its issue).
export {};
