// One throw-away PostgreSQL database per test file (or benchmark run), through the services'
// helper (its names carry the creating pid, so the cleanup of killed runs recognises them).
export { createTestDatabase as createEventStoreTestDatabase, type TestDatabase } from "../../infra/services/testDatabase.js";
