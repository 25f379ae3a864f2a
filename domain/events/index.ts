// Public surface of domain/events (filled in by its issue).
export {};
