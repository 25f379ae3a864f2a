// Public surface of domain/cost (filled in by its issue).
export {};
