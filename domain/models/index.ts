// Public surface of domain/models (filled in by its issue).
export {};
