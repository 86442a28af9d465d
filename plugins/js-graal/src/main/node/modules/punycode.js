// node:punycode: Mathias Bynens's `punycode`, the very code Node bundles.
import punycode from 'punycode/punycode.js';

export default punycode;
