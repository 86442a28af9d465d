import { nope } from './leaf.cjs';
export default nope;
