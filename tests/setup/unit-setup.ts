// Real IndexedDB semantics in Node for the storage tests; the browser uses its own.
import 'fake-indexeddb/auto';
import '@testing-library/jest-dom/vitest';
