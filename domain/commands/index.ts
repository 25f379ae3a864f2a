// Public surface of domain/commands (filled in by its issue).
export {};
