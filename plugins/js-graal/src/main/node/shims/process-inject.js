// Replaces the free `process` identifier inside the bundled packages (esbuild `inject`).
import shim from './process.js';
export { shim as process };
