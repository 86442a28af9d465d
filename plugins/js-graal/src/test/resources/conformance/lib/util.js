// Imported by worker.js: checks relative imports between bundle modules.
import { suffix } from './deeper/suffix.js';

export function shout(s) {
  return s.toUpperCase() + suffix;
}
