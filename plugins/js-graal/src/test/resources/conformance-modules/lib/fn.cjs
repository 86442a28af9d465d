module.exports = function greet(name) { return 'hi ' + name; };
module.exports.extra = 5;
