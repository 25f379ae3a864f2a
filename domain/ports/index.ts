// Public surface of domain/ports (filled in by its issue).
export {};
