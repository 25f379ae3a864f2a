// Public surface of domain/judge (filled in by its issue).
export {};
