export const only = 1;
