throw new TypeError('cjs module failed');
