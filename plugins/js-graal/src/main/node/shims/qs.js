// `qs` as the legacy url parser asks for it: Node's querystring semantics (querystring-es3), not
// qs's nested objects. url.js passes qs-style option objects, which querystring would take for
// separators: only string separators are passed on.
const qs = require('querystring-es3/index.js');
const str = (v) => (typeof v === 'string' ? v : undefined);
module.exports = {
  parse: (s, sep, eq, options) => qs.parse(s, str(sep), str(eq), options),
  stringify: (o, sep, eq, options) => qs.stringify(o, str(sep), str(eq), options),
};
