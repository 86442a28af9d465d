module.exports = { leaf: 'leaf value' };
