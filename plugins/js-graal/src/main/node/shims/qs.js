// `qs` as the legacy url parser asks for it: Node's querystring semantics (querystring-es3), not qs's nested objects.
module.exports = require('querystring-es3/index.js');
