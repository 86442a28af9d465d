export const hex = (buffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0')).join('');
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
