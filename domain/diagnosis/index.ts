// Public surface of domain/diagnosis (filled in by its issue).
export {};
