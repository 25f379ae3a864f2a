// Public surface of domain/report (filled in by its issue).
export {};
