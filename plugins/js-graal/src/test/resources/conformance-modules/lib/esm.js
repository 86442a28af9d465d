export default 'esm default';
export const named = 'esm named';
