import { serverTest } from "./server-test";

// Test files and their helpers take the fixtures' types from here, beside `it`.
export type { TestApp, TestOperator, TestSockets } from "./server-test";

/**
 * The test API of a file over a server with the test defaults (see serverTest and startTestServer). A file whose
 * server needs other settings calls serverTest itself and does not import this module: importing it declares this
 * server for the file.
 */
export const it = serverTest();
