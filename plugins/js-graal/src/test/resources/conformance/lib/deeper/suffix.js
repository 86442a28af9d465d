export const suffix = '!';
