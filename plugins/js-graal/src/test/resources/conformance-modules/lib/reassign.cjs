exports.lost = true;
module.exports = { kept: true };
exports.alsoLost = true;
